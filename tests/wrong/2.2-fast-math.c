/* tests/wrong/2.2-fast-math.c: exercise 2.2 answered with the plain loop and
 * a pragma that lets the compiler reorder float additions (-ffast-math for
 * this function): fast, but the lesson, reordering the sum yourself, is
 * skipped, and fast-math also lets the compiler assume no NaN or infinity.
 * expect: FAIL: 2.2-fast-math.c asks the compiler for fast-math */
#include "sumsq.h"

/* gcc's and clang's spellings of the same request; clang 14 has no
 * optimize pragma and warns on it (an error under WERROR=1). */
#if defined(__clang__)
#pragma clang fp reassociate(on)
#else
#pragma GCC optimize("fast-math")
#endif

float sumsq(const float *x, size_t n)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i++) s += x[i] * x[i];
    return s;
}
