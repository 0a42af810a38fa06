/* tests/wrong/1.1-reads-only.c: exercise 1.1 counting only the bytes read
 * (4 n): the write of y[i] moves 4 bytes too.
 * expect: FAIL: square_counts\(1\) gave 4 bytes, want 8
 * hint: the write of y */
#include "square.h"

void square(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] * x[i];
}

void square_counts(size_t n, double *flops, double *bytes)
{
    *flops = (double)n;
    *bytes = sizeof(float) * (double)n;
}
