/* tests/wrong/2.1-fixed-alpha.c: exercise 2.1 with alpha written in as the
 * 0.1 of the checker's first cases, in the vector loop only: the parameter
 * is ignored there, and the tail uses it (so small n look right).
 * expect: FAIL: leaky_relu\(n=7, alpha=1\.5\): y\[[0-9]+\] = -?[0-9.e-]+ for x = -[0-9.e-]+, want -?[0-9.e-]+: 0\.1 \* x, as if alpha were always 0\.1
 * hint: alpha is a parameter */
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
    const __m128 zero = _mm_setzero_ps(), a = _mm_set1_ps(0.1f);      /* the bug: not alpha */
    for (; i + 4 <= n; i += 4) {
        __m128 v = _mm_loadu_ps(x + i);
        __m128 m = _mm_cmpgt_ps(v, zero);
        _mm_storeu_ps(y + i, _mm_or_ps(_mm_and_ps(m, v), _mm_andnot_ps(m, _mm_mul_ps(v, a))));
    }
#elif defined(__aarch64__)
    const float32x4_t zero = vdupq_n_f32(0.0f);
    for (; i + 4 <= n; i += 4) {
        float32x4_t v = vld1q_f32(x + i);
        vst1q_f32(y + i, vbslq_f32(vcgtq_f32(v, zero), v, vmulq_n_f32(v, 0.1f)));   /* the bug */
    }
#endif
    for (; i < n; i++) y[i] = x[i] > 0 ? x[i] : alpha * x[i];
}
