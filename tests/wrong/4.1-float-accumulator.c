/* tests/wrong/4.1-float-accumulator.c: exercise 4.1 summing in float, which
 * rounds once the sum passes 2^24: wrong on one thread too, and not because
 * an element was skipped.
 * expect: FAIL: sum of .* should be
 * hint: accumulate in double */
#include "omp_info.h"
#include "reduction.h"

void sum_and_max(const float *x, long n, double *sum, float *max)
{
    float s = 0;
    float m = x[0];
    #pragma omp parallel for reduction(+:s) reduction(max:m)
    for (long i = 0; i < n; i++) {
        s += x[i];
        if (x[i] > m) m = x[i];
    }
    *sum = s;
    *max = m;
}
