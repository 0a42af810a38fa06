/* exercises/05-amdahl/karp_flatt.c: exercise 5.2, reading a speedup curve.
 *
 * What it teaches: two programs can both reach 3x on 4 processors for
 * different reasons. One has a fixed serial part (Amdahl: e constant); the
 * other has overhead that grows with the processors (e rising), and will get
 * worse, not level off, on a bigger machine. The Karp-Flatt metric e tells
 * them apart from measured speedups alone.
 *
 * Check your work:  make ex-5.2
 * The answer is in solutions/05-amdahl/karp_flatt.c: try first.
 */
#include "exercise.h"
#include "karp_flatt.h"

double karp_flatt(double speedup, int n)
{
    /* TODO: the formula in karp_flatt.h, in double precision.
     *  - n <= 1 (1 - 1/n is 0) or speedup <= 0: return NAN (#include <math.h>).
     *  - 1/n with an int n is integer division: write 1.0 / n.
     * Then delete the lines below. */
    (void)speedup;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}

int overhead_grows(const double *speedup, const int *n, int count)
{
    /* TODO: e at the smallest n > 1 and at the largest n; compare as
     * karp_flatt.h says (rising by more than 20% AND by more than 0.005).
     * Then delete the lines below. */
    (void)speedup;
    (void)n;
    (void)count;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
