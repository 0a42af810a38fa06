/* solutions/05-amdahl/karp_flatt.c: a solution of exercise 5.2.
 *
 * Added to the skeleton: the formula with its two undefined cases, and the
 * comparison of e at the first and last n > 1. With Amdahl's own speedups
 * (p = 0.9) e is 0.1 at every n; add an overhead of 0.2% of T1 per
 * processor and e climbs from 0.10 to 0.14 between 2 and 16 processors.
 * Graded by: make solution-5.2
 */
#include <math.h>

#include "karp_flatt.h"

double karp_flatt(double speedup, int n)
{
    if (n <= 1 || speedup <= 0) return NAN;                       /* added */
    return (1.0 / speedup - 1.0 / n) / (1.0 - 1.0 / n);           /* added */
}

int overhead_grows(const double *speedup, const int *n, int count)
{
    double first = NAN, last = NAN;                               /* added */
    int points = 0;                                               /* added */
    for (int i = 0; i < count; i++) {                             /* added */
        if (n[i] <= 1) continue;                                  /* added */
        double e = karp_flatt(speedup[i], n[i]);                  /* added */
        if (points++ == 0) first = e;                             /* added */
        last = e;                                                 /* added */
    }                                                             /* added */
    if (points < 2) return 0;                                     /* added */
    return last > 1.2 * first && last > first + 0.005;            /* added */
}
