/* tests/wrong/15.1-plus-one.c: exercise 15.1 as floor(ratio) + 1, which
 * rounds 2.5 up right but gives an exact multiple one loader too many:
 * 2 s of loading per 1 s of compute needs 2 loaders, not 3.
 * expect: FAIL: loaders_needed\(load 2 s, compute 1 s, 8 cores\) = 3, want 2
 * hint: two loaders make two batches per 2 s */
#include "pool_size.h"

#include <math.h>

int loaders_needed(double load_s, double compute_s, int cores)
{
    int need = (int)floor(load_s / compute_s) + 1;
    int cap = cores - 1 < 1 ? 1 : cores - 1;
    return need > cap ? cap : need;
}
