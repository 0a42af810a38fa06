/* tests/wrong/4.1-atomic.c: exercise 4.1 with the max reduced but the sum
 * guarded instead: `omp atomic` on every add, so no race and the right sum,
 * but the threads take turns at one shared variable once per element
 * (1000003 turns for the largest n).
 * expect: FAIL: no reduction\(\+: \.\.\.\) clause for the sum: with `omp atomic` the threads take turns at one shared variable, once per element
 * hint: right, but no faster than one thread */
#include "omp_info.h"
#include "reduction.h"

void sum_and_max(const float *x, long n, double *sum, float *max)
{
    double s = 0;
    float m = x[0];
    #pragma omp parallel for reduction(max:m)
    for (long i = 0; i < n; i++) {
        #pragma omp atomic
        s += x[i];
        if (x[i] > m) m = x[i];
    }
    *sum = s;
    *max = m;
}
