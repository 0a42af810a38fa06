/* tests/wrong/4.1-num-threads.c: exercise 4.1 with the reductions right but
 * num_threads(2) in the pragma, "for a 2-core laptop": it overrides
 * omp_set_num_threads(), so asked for 7 threads (or 3) it runs on 2, and
 * the sums are right whatever the count, so only the team size shows it.
 * expect: FAIL: asked for 7 threads, sum_and_max\(\) ran on at most 2: a num_threads\(\) clause overrides omp_set_num_threads\(\)
 * skip-if: no /proc/self/task here|built without OpenMP */
#include "omp_info.h"
#include "reduction.h"

void sum_and_max(const float *x, long n, double *sum, float *max)
{
    double s = 0;
    float m = x[0];
    #pragma omp parallel for reduction(+:s) reduction(max:m) num_threads(2)
    for (long i = 0; i < n; i++) {
        s += x[i];
        if (x[i] > m) m = x[i];
    }
    *sum = s;
    *max = m;
}
