/* exercises/04-openmp/reduction.c: exercise 4.1, a loop with two reductions.
 *
 * The task: add up x[0..n-1] and find its largest element, in ONE parallel
 * loop with OpenMP. Why it is a lesson: a loop whose iterations all update
 * the same variable is a data race once the iterations run on several
 * threads. Each thread reads the running sum, adds, and writes it back; when
 * two do that at once one update is lost (chapter 03 measured it). OpenMP
 * has a clause for exactly this pattern; finding it, and knowing how it
 * starts each thread's copy, is the exercise.
 *
 * The interface (reduction.h):
 *   void sum_and_max(const float *x, long n, double *sum, float *max);
 *   - x: n floats, n >= 1 (the checker never passes n = 0);
 *   - *sum: x[0] + ... + x[n-1], accumulated in double (a float holds whole
 *     numbers exactly only up to 2^24 = 16777216, and the large sizes pass it);
 *   - *max: the largest x[i]. The data may be all negative, so 0 is not a
 *     safe starting value;
 *   - run on as many threads as omp_set_num_threads() last set (the checker
 *     sets it); both results must not depend on that number.
 *
 * What the checker tries (check_reduction.c): n = 1, 2, 3, 17, 1001, 65537
 * and 1000003; whole numbers in [-1000, 1000] (every partial sum is an exact
 * double, so the sum is checked with ==), the same with the largest value
 * last, and only negative numbers; each on 1, 2, 3 and 7 threads. Besides
 * the numbers, with no timing: it reads this file's pragmas as the compiler
 * does (cc -E), and a loop with no `omp ... for` pragma, or without a
 * reduction(+: ...) and a reduction(max: ...) clause, fails (omp atomic or
 * omp critical per element is right but takes turns; a max shared without
 * them is a race that passes by luck). It also counts the process's threads
 * after the calls on 7 threads (Linux: /proc/self/task) against a region of
 * 7 of its own: a num_threads() or if() clause, or an omp for outside a
 * parallel region, fails. Built without OpenMP (make NO_OMP=1) it grades on
 * one thread and says so.
 *
 *   make ex-4.1      grade this file (each failure is explained)
 *   make hint-4.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/04-openmp/reduction.c: try first.
 */
#include "exercise.h"
#include "omp_info.h"   /* builds without OpenMP too: a pragma is then ignored */
#include "reduction.h"

void sum_and_max(const float *x, long n, double *sum, float *max)
{
    /* TODO: your loop. Then delete the placeholder lines below. */
    (void)x;
    (void)n;
    (void)sum;
    (void)max;
    PW_NOT_YET_IMPLEMENTED();
}
