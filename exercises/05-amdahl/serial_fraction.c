/* exercises/05-amdahl/serial_fraction.c: exercise 5.1, how much of a program
 * is serial, from nothing but its run times.
 *
 * What it teaches: Amdahl's law run backwards. If a fraction s of the work
 * is serial, the time on N threads is T(N) = T(1) (s + (1 - s) / N). Given
 * measured T(N), find s. One point gives an answer (Karp-Flatt does exactly
 * that); several noisy points give a better one by least squares.
 *
 * Check your work:  make ex-5.1   (the checker makes timings of programs
 * whose s it knows, with 2% noise, and wants your estimate within 0.02).
 * The answer is in solutions/05-amdahl/serial_fraction.c: try first.
 */
#include "exercise.h"
#include "serial_fraction.h"

double estimate_serial_fraction(const int *threads, const double *seconds, int count)
{
    /* TODO: estimate s.
     *  1. Find the 1-thread time T1 (it is not always seconds[0]).
     *  2. For each run, T(N) / T1 = s + (1 - s) / N. Write it as a straight
     *     line in x = 1 - 1/N:  T(N)/T1 = 1 - (1 - s) x,  i.e.
     *     y = 1 - T(N)/T1 = p x  with p = 1 - s.
     *  3. Least squares for a line through the origin: p = sum(x y) / sum(x x)
     *     over the runs (the 1-thread run has x = 0 and adds nothing).
     *  4. Return s = 1 - p, kept inside [0, 1].
     * Then delete the lines below. */
    (void)threads;
    (void)seconds;
    (void)count;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
