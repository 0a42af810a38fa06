/* tests/wrong/5.2-no-denominator.c: exercise 5.2 with Karp-Flatt's
 * numerator only, 1/S - 1/n, not divided by 1 - 1/n: on 2 threads it gives
 * half the serial fraction.
 * expect: FAIL: e differs from the serial fraction behind the speedup
 * hint: check the formula \(1/S - 1/n\) / \(1 - 1/n\) */
#include <math.h>

#include "karp_flatt.h"

double karp_flatt(double speedup, int n)
{
    if (n <= 1 || speedup <= 0) return NAN;
    return 1.0 / speedup - 1.0 / n;
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
    if (points < 2) return 0;
    return last > 1.2 * first && last > first + 0.005;
}
