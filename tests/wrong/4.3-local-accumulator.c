/* tests/wrong/4.3-local-accumulator.c: a RIGHT answer to exercise 4.3 (the
 * other fix the solution names) that a checker judging alignment must not
 * fail: each thread pushes into a welford local to the parallel region, on
 * its own stack (only 8-byte aligned, but megabytes from the others'), and
 * merges it into the total under a critical section once, at the end.
 * expect: PASS
 * skip-if: built without OpenMP */
#include "moments.h"
#include "omp_info.h"

welford moments_omp(const double *x, size_t n, int threads)
{
    welford all = { 0, 0.0, 0.0 };
    (void)threads;   /* used by the pragma alone: unused without OpenMP */

    #pragma omp parallel num_threads(threads)
    {
        welford mine = { 0, 0.0, 0.0 };
        #pragma omp for
        for (long i = 0; i < (long)n; i++) welford_push(&mine, x[i]);
        #pragma omp critical
        all = welford_merge(all, mine);
    }
    return all;
}
