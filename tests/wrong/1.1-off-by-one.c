/* tests/wrong/1.1-off-by-one.c: exercise 1.1 whose loop stops one short
 * (i < n - 1): the last element of y is never written.
 * expect: FAIL: y\[0\] was not written \(n = 1\): does your loop stop before n\?
 * hint: does your loop stop before n */
#include "square.h"

void square(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) y[i] = x[i] * x[i];
}

void square_counts(size_t n, double *flops, double *bytes)
{
    *flops = (double)n;
    *bytes = 2.0 * sizeof(float) * (double)n;
}
