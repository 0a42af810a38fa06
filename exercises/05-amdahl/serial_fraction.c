/* exercises/05-amdahl/serial_fraction.c: exercise 5.1, how much of a program
 * is serial, from nothing but its run times.
 *
 * What it teaches: Amdahl's law run backwards. If a fraction s of the work
 * is serial, the time on N threads is T(N) = T(1) (s + (1 - s) / N). Given
 * measured T(N), find s. One point gives an answer (Karp-Flatt does exactly
 * that); several noisy points give a better one by least squares.
 *
 * The task: estimate s from several runs at once, not from one.
 *
 * The interface (serial_fraction.h):
 *   double estimate_serial_fraction(const int *threads, const double *seconds, int count);
 *   - seconds[i] is the median time on threads[i] threads, i = 0..count-1;
 *   - the runs come in any order; exactly one of them is on 1 thread (it is
 *     not always the first);
 *   - return s, the SERIAL fraction (not p = 1 - s), within [0, 1];
 *   - timings are noisy, a few percent: one run alone moves s by about as
 *     much as its noise, so use every run.
 *
 * What the checker tries (check_serial_fraction.c): timings it makes from
 * T(N) = T1 (s + (1 - s) / N), exact on 1, 2, 4, 8, 16 threads (s = 0.1), on
 * 1, 2, 4 (s = 0 and s = 1) and on 1, 3, 5, 7 (s = 0.25), which must give s
 * within 1e-6; then with up to 2% noise from a fixed seed (T1 exact) on
 * 16 runs, in order and shuffled, on 8 odd counts and on 32 runs, which
 * must give s within 3 standard deviations of a least-squares fit over all
 * the runs (0.002 to 0.009): an estimate from two runs misses by more.
 *
 *   make ex-5.1      grade this file (each failure is explained)
 *   make hint-5.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/05-amdahl/serial_fraction.c: try first.
 */
#include "exercise.h"
#include "serial_fraction.h"

double estimate_serial_fraction(const int *threads, const double *seconds, int count)
{
    /* TODO: the estimate. Then delete the placeholder lines below. */
    (void)threads;
    (void)seconds;
    (void)count;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
