/* tests/wrong/2.2-two-chains.c: exercise 2.2 answered with two partial
 * sums (even and odd elements): right, and twice the plain loop, because
 * two chains of adds overlap, but far from the 16 lanes of a vector the
 * exercise is about.
 * expect: FAIL: sumsq is right but only [0-9.]+x the plain loop, where 16 partial sums ran
 * skip-if: the speed is not judged */
#include "sumsq.h"

float sumsq(const float *x, size_t n)
{
    float even = 0.0f, odd = 0.0f;
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        even += x[i] * x[i];
        odd += x[i + 1] * x[i + 1];
    }
    if (i < n) even += x[i] * x[i];
    return even + odd;
}
