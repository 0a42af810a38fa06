/* tests/wrong/1.1-calls-reference.c: exercise 1.1 answered by calling the
 * reference the checker compares with. Every value is right.
 * expect: FAIL: 1.1-calls-reference.c calls square_ref\(\) */
#include "elementwise.h"
#include "square.h"

void square(const float *x, float *y, size_t n) { square_ref(x, y, n); }

void square_counts(size_t n, double *flops, double *bytes)
{
    *flops = (double)n;
    *bytes = 8.0 * (double)n;
}
