/* tests/wrong/2.2-intrinsics.c: exercise 2.2 written with intrinsics by
 * hand (SSE2, or NEON): right and fast, but the exercise is plain C that
 * the compiler vectorises by itself (intrinsics are 2.1's lesson).
 * expect: FAIL: 2.2-intrinsics.c uses intrinsics \([_a-z0-9]+, line [0-9]+\)
 * hint: Reorder the sum in the source instead
 * skip-if: the compiler kept one chain */
#include "sumsq.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

float sumsq(const float *x, size_t n)
{
    size_t i = 0;
    float s = 0.0f;
#if defined(__SSE2__)
    __m128 a0 = _mm_setzero_ps(), a1 = _mm_setzero_ps();
    for (; i + 8 <= n; i += 8) {
        __m128 v0 = _mm_loadu_ps(x + i), v1 = _mm_loadu_ps(x + i + 4);
        a0 = _mm_add_ps(a0, _mm_mul_ps(v0, v0));
        a1 = _mm_add_ps(a1, _mm_mul_ps(v1, v1));
    }
    float lanes[4];
    _mm_storeu_ps(lanes, _mm_add_ps(a0, a1));
    s = lanes[0] + lanes[1] + lanes[2] + lanes[3];
#elif defined(__aarch64__)
    float32x4_t a0 = vdupq_n_f32(0.0f), a1 = vdupq_n_f32(0.0f);
    for (; i + 8 <= n; i += 8) {
        float32x4_t v0 = vld1q_f32(x + i), v1 = vld1q_f32(x + i + 4);
        a0 = vaddq_f32(a0, vmulq_f32(v0, v0));
        a1 = vaddq_f32(a1, vmulq_f32(v1, v1));
    }
    s = vaddvq_f32(vaddq_f32(a0, a1));
#endif
    for (; i < n; i++) s += x[i] * x[i];
    return s;
}
