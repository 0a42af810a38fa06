/* tests/wrong/15.1-no-core-cap.c: exercise 15.1 without the cap: as many
 * loaders as the ratio asks, though only cores - 1 can run beside the
 * training thread.
 * expect: FAIL: loaders_needed\(load 10 s, compute 1 s, 4 cores\) = 10, want 3
 * hint: 4 cores leave 3 */
#include "pool_size.h"

#include <math.h>

int loaders_needed(double load_s, double compute_s, int cores)
{
    (void)cores;
    double need = ceil(load_s / compute_s);
    return need < 1 ? 1 : (int)need;
}
