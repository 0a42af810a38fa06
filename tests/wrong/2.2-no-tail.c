/* tests/wrong/2.2-no-tail.c: exercise 2.2 with the 16 partial sums but
 * without the tail: the last n % 16 elements are left out of the sum.
 * expect: FAIL: sumsq\(n=1\) = 0, want [14]: the last 1 element was left out \(the tail after the whole blocks\)
 * hint: add the remaining elements one at a time */
#include "sumsq.h"

float sumsq(const float *x, size_t n)
{
    float acc[16] = { 0 };
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        for (int k = 0; k < 16; k++) acc[k] += x[i + k] * x[i + k];
    /* the tail, x[i .. n-1], is missing */
    float s = 0.0f;
    for (int k = 0; k < 16; k++) s += acc[k];
    return s;
}
