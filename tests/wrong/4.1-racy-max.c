/* tests/wrong/4.1-racy-max.c: exercise 4.1 with reduction(+:s) but the max
 * shared between the threads (no reduction(max:m)): it passed 10 of 11
 * plain runs.
 * expect: FAIL: ThreadSanitizer: data race
 * skip-if: not under ThreadSanitizer */
#include "omp_info.h"
#include "reduction.h"

void sum_and_max(const float *x, long n, double *sum, float *max)
{
    double s = 0;
    float m = x[0];
    #pragma omp parallel for reduction(+:s)
    for (long i = 0; i < n; i++) {
        s += x[i];
        if (x[i] > m) m = x[i];
    }
    *sum = s;
    *max = m;
}
