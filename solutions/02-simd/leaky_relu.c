/* solutions/02-simd/leaky_relu.c: a solution of exercise 2.1.
 *
 * Added to the skeleton exercises/02-simd/leaky_relu.c: the vector loop in
 * each architecture's block (load, compare into a mask, both arms, blend,
 * store) and the scalar tail, in place of the placeholder and its (void)
 * casts. Graded by: make solution-2.1
 *
 * The mask replaces a branch, so the time does not depend on how many x
 * are negative (chapters/02-simd/branches.c measures what a branch costs).
 * The compiler would vectorise the plain loop of the tail by itself (-O3);
 * the point here is to see every step it would take.
 */
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
    const __m128 zero = _mm_setzero_ps(), a = _mm_set1_ps(alpha);      /* added */
    for (; i + 4 <= n; i += 4) {                                          /* added */
        __m128 v = _mm_loadu_ps(x + i);                                   /* added */
        __m128 m = _mm_cmpgt_ps(v, zero);                                 /* added: x > 0 */
        __m128 r = _mm_or_ps(_mm_and_ps(m, v), _mm_andnot_ps(m, _mm_mul_ps(v, a)));  /* added */
        _mm_storeu_ps(y + i, r);                                          /* added */
    }
#elif defined(__aarch64__)
    const float32x4_t zero = vdupq_n_f32(0.0f);                           /* added */
    for (; i + 4 <= n; i += 4) {                                          /* added */
        float32x4_t v = vld1q_f32(x + i);                                 /* added */
        uint32x4_t m = vcgtq_f32(v, zero);                                /* added */
        vst1q_f32(y + i, vbslq_f32(m, v, vmulq_n_f32(v, alpha)));         /* added */
    }
#endif
    for (; i < n; i++) y[i] = x[i] > 0 ? x[i] : alpha * x[i];             /* added: the tail */
}
