/* tests/wrong/2.2-one-chain.c: exercise 2.2 answered with the plain loop:
 * right, but one chain of adds the compiler may not vectorise.
 * expect: FAIL: 2.2-one-chain.c has no packed \(vector\) float addition|FAIL: sumsq is right but only
 * skip-if: the check for packed .* was skipped */
#include "sumsq.h"

float sumsq(const float *x, size_t n)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i++) s += x[i] * x[i];
    return s;
}
