/* tests/wrong/4.1-split-pragma.c: a RIGHT answer to exercise 4.1 that a
 * reader of the pragmas must not fail: the parallel region and the loop on
 * two pragmas, the reduction clauses spaced out and in the other order.
 * expect: PASS */
#include "omp_info.h"
#include "reduction.h"

void sum_and_max(const float *x, long n, double *sum, float *max)
{
    double s = 0;
    float m = x[0];
    #pragma omp parallel
    {
        #pragma omp for reduction( max : m ) reduction( + : s )
        for (long i = 0; i < n; i++) {
            s += x[i];
            if (x[i] > m) m = x[i];
        }
    }
    *sum = s;
    *max = m;
}
