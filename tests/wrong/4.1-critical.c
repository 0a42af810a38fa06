/* tests/wrong/4.1-critical.c: exercise 4.1 with the max reduced but the sum
 * added inside a critical section, element by element: right, but the
 * threads take turns at it 1000003 times for the largest n.
 * expect: FAIL: no reduction\(\+: \.\.\.\) clause for the sum: with `omp critical` the threads take turns at one shared variable, once per element */
#include "omp_info.h"
#include "reduction.h"

void sum_and_max(const float *x, long n, double *sum, float *max)
{
    double s = 0;
    float m = x[0];
    #pragma omp parallel for reduction(max:m)
    for (long i = 0; i < n; i++) {
        #pragma omp critical
        s += x[i];
        if (x[i] > m) m = x[i];
    }
    *sum = s;
    *max = m;
}
