/* tests/wrong/2.1-max-trick.c: exercise 2.1 as y = max(x, alpha * x), one
 * instruction instead of a mask: that is the leaky ReLU only while
 * alpha <= 1; for alpha > 1 it keeps alpha * x for positive x and x for
 * negative x, both wrong.
 * expect: FAIL: leaky_relu\(n=7, alpha=1\.5\): y\[[0-9]+\] = -?[0-9.e-]+ for x = -?[0-9.e-]+, want -?[0-9.e-]+: max\(x, alpha \* x\)
 * hint: compare x with 0 */
#include "leaky_relu.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

void leaky_relu(const float *x, float *y, size_t n, float alpha)
{
    size_t i = 0;
#if defined(__SSE2__)
    const __m128 a = _mm_set1_ps(alpha);
    for (; i + 4 <= n; i += 4) {
        __m128 v = _mm_loadu_ps(x + i);
        _mm_storeu_ps(y + i, _mm_max_ps(v, _mm_mul_ps(v, a)));        /* the bug: right only for alpha <= 1 */
    }
#elif defined(__aarch64__)
    for (; i + 4 <= n; i += 4) {
        float32x4_t v = vld1q_f32(x + i);
        vst1q_f32(y + i, vmaxq_f32(v, vmulq_n_f32(v, alpha)));        /* the bug */
    }
#endif
    for (; i < n; i++) y[i] = x[i] > alpha * x[i] ? x[i] : alpha * x[i];   /* the same max */
}
