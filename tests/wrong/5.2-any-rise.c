/* tests/wrong/5.2-any-rise.c: exercise 5.2 calling any rise of the serial
 * fraction growing overhead, with no margin: timing noise of a fraction of
 * a percent reads as a trend.
 * expect: FAIL: tiny e ending 0.0004 higher \(noise\) should give 0
 * hint: a serial fraction or noise, not growing overhead */
#include <math.h>

#include "karp_flatt.h"

double karp_flatt(double speedup, int n)
{
    if (n <= 1 || speedup <= 0) return NAN;
    return (1.0 / speedup - 1.0 / n) / (1.0 - 1.0 / n);
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
    return points >= 2 && last > first;
}
