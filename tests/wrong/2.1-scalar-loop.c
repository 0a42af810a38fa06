/* tests/wrong/2.1-scalar-loop.c: exercise 2.1 (intrinsics by hand) answered
 * with the plain scalar loop: right on every size, but no vector code.
 * expect: FAIL: 2.1-scalar-loop.c has no packed \(vector\) float multiply
 * skip-if: the check for packed .* was skipped */
#include "leaky_relu.h"

void leaky_relu(const float *x, float *y, size_t n, float alpha)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : alpha * x[i];
}
