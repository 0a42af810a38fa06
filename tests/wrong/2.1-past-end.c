/* tests/wrong/2.1-past-end.c: exercise 2.1 with the vector loop run while
 * i < n: its last block of 4 reads and writes up to 3 floats past the end
 * of x and y, instead of leaving them to a scalar tail.
 * expect: FAIL: leaky_relu\(n=1\) wrote y\[1\], past the last element y\[0\]
 * hint: run the vector loop only while */
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
    const __m128 zero = _mm_setzero_ps(), a = _mm_set1_ps(alpha);
    for (; i < n; i += 4) {                       /* the bug: i < n, not i + 4 <= n */
        __m128 v = _mm_loadu_ps(x + i);
        __m128 m = _mm_cmpgt_ps(v, zero);
        _mm_storeu_ps(y + i, _mm_or_ps(_mm_and_ps(m, v), _mm_andnot_ps(m, _mm_mul_ps(v, a))));
    }
#elif defined(__aarch64__)
    const float32x4_t zero = vdupq_n_f32(0.0f);
    for (; i < n; i += 4) {                       /* the bug: i < n, not i + 4 <= n */
        float32x4_t v = vld1q_f32(x + i);
        vst1q_f32(y + i, vbslq_f32(vcgtq_f32(v, zero), v, vmulq_n_f32(v, alpha)));
    }
#endif
    for (; i < n; i++) y[i] = x[i] > 0 ? x[i] : alpha * x[i];   /* never runs */
}
