/* exercises/04-openmp/reduction.c: exercise 4.1, a loop with two reductions.
 *
 * What it teaches: a parallel loop that accumulates into one variable is a
 * data race. Every thread reads sum, adds, and writes it back; two threads
 * doing that at once lose one of the updates (chapter 03 shows it). OpenMP's
 * answer is a clause, reduction(op:var): each thread gets a private copy
 * of var, started at op's identity (0 for +, the smallest value for max),
 * and the copies are combined with op when the loop ends.
 *
 * Write sum_and_max(), declared in reduction.h: one loop over x[0..n-1]
 * with `#pragma omp parallel for` and two reductions, + for the sum and
 * max for the maximum.
 *
 * Check your work:  make ex-4.1   (n = 1 to 1000003, odd sizes, all-negative
 * data, on 1, 2, 3 and 7 threads; each failure is explained). Built without
 * OpenMP (make NO_OMP=1) it still grades, on one thread.
 * The answer is in solutions/04-openmp/reduction.c: try first.
 */
#include "exercise.h"
#include "omp_info.h"   /* builds without OpenMP too: the pragma is then ignored */
#include "reduction.h"

void sum_and_max(const float *x, long n, double *sum, float *max)
{
    /* TODO: in three steps.
     * 1. Two local variables: double s = 0, and float m = x[0] (not 0: if
     *    every x is negative, 0 would be a max that is not in the data).
     * 2. The loop, with the pragma on the line above it:
     *        #pragma omp parallel for reduction(+:s) reduction(max:m)
     *        for (long i = 0; i < n; i++) { s += x[i]; if (x[i] > m) m = x[i]; }
     *    Try it first without the reduction clauses, and see what the
     *    checker says with 7 threads.
     * 3. *sum = s; *max = m;
     * Then delete the four lines below. */
    (void)x;
    (void)n;
    (void)sum;
    (void)max;
    PW_NOT_YET_IMPLEMENTED();
}
