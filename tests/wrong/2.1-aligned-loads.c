/* tests/wrong/2.1-aligned-loads.c: exercise 2.1 with aligned loads and
 * stores (_mm_load_ps, _mm_store_ps), which need x + i and y + i on a
 * 16-byte boundary: right whenever the caller's arrays happen to be
 * aligned, a crash when they are not (nothing in leaky_relu.h says they are).
 * (Under SAN=asan, UBSan names the misaligned load before it can fault.)
 * expect: FAIL: leaky_relu\(n=4\) crashed \(SIGSEGV\) with x 4 bytes and y 8 bytes past a 16-byte boundary|FAIL: .*runtime error: load of misaligned address
 * hint: _mm_loadu_ps|misaligned address
 * skip-if: no alignment faults on this CPU */
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
    for (; i + 4 <= n; i += 4) {
        __m128 v = _mm_load_ps(x + i);            /* the bug: aligned load */
        __m128 m = _mm_cmpgt_ps(v, zero);
        _mm_store_ps(y + i, _mm_or_ps(_mm_and_ps(m, v), _mm_andnot_ps(m, _mm_mul_ps(v, a))));   /* and store */
    }
#elif defined(__aarch64__)
    /* NEON's vld1q_f32 and vst1q_f32 take any float address: no such mistake to make */
    const float32x4_t zero = vdupq_n_f32(0.0f);
    for (; i + 4 <= n; i += 4) {
        float32x4_t v = vld1q_f32(x + i);
        vst1q_f32(y + i, vbslq_f32(vcgtq_f32(v, zero), v, vmulq_n_f32(v, alpha)));
    }
#endif
    for (; i < n; i++) y[i] = x[i] > 0 ? x[i] : alpha * x[i];
}
