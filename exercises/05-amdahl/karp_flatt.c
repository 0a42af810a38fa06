/* exercises/05-amdahl/karp_flatt.c: exercise 5.2, reading a speedup curve.
 *
 * The task: two functions. karp_flatt() turns one measured speedup into the
 * Karp-Flatt metric e, the serial fraction that Amdahl's law would need to
 * explain it. overhead_grows() reads a whole sweep of speedups and says
 * whether e stays put or climbs. Why it is a lesson: two programs can both
 * reach 3x on 4 processors for different reasons. One has a fixed serial
 * part (e constant: it levels off at 1/e). The other pays an overhead that
 * grows with the processors (e rising: communication, start-up, contention),
 * and will get slower, not level off, on a bigger machine. Measured
 * speedups alone tell them apart.
 *
 * The interface (karp_flatt.h, which also gives the formula):
 *   double karp_flatt(double speedup, int n);
 *     - e for `speedup` measured on n processors, in double precision;
 *     - NAN (from <math.h>) where it is undefined: n <= 1, or speedup <= 0.
 *   int overhead_grows(const double *speedup, const int *n, int count);
 *     - count points, n increasing; points with n <= 1 carry no e;
 *     - 1 when e at the largest n is both more than 1.2 times and more than
 *       0.005 above e at the smallest n > 1, else 0; fewer than two points
 *       with n > 1 show no trend: 0.
 *
 * What the checker tries (check_karp_flatt.c): karp_flatt() on Amdahl's own
 * speedups for serial fractions 0.1 and 0.02 at n = 2, 4, ..., 1024 (e must
 * come out as that fraction to 1e-12), and on n = 0, n = 1, speedup 0 and
 * -1 (NAN). overhead_grows() on six sweeps over n = 1, 2, 4, 8, 16 (or 1, 3,
 * 5, 7): a constant e (0), an overhead of 0.2% of T1 per processor (1), a
 * near-linear speedup whose tiny e wobbles (0), a perfect one (0), a sweep
 * with a single n > 1 (0), and odd counts with overhead (1).
 *
 *   make ex-5.2      grade this file (each failure is explained)
 *   make hint-5.2    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/05-amdahl/karp_flatt.c: try first.
 */
#include "exercise.h"
#include "karp_flatt.h"

double karp_flatt(double speedup, int n)
{
    /* TODO: the metric. Then delete the placeholder lines below. */
    (void)speedup;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}

int overhead_grows(const double *speedup, const int *n, int count)
{
    /* TODO: the verdict on a sweep. Then delete the placeholder lines below. */
    (void)speedup;
    (void)n;
    (void)count;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
