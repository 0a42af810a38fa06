/* tests/wrong/5.2-calls-library.c: exercise 5.2 answered with the
 * workbook's own Karp-Flatt metric (common/models.h).
 * expect: FAIL: 5.2-calls-library.c calls pw_karp_flatt\(\) */
#include <math.h>

#include "karp_flatt.h"
#include "models.h"

double karp_flatt(double speedup, int n)
{
    if (n <= 1 || speedup <= 0) return NAN;
    return pw_karp_flatt(speedup, n);
}

int overhead_grows(const double *speedup, const int *n, int count)
{
    double first = NAN, last = NAN;
    int points = 0;
    for (int i = 0; i < count; i++) {
        if (n[i] <= 1) continue;
        double e = karp_flatt(speedup[i], n[i]);
        if (points++ == 0) first = e;
        last = e;
    }
    return points >= 2 && last > 1.2 * first && last > first + 0.005;
}
