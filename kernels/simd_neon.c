/* kernels/simd_neon.c: chapter 02's hand-written rungs for AArch64 NEON,
 * 4 floats per instruction. Every AArch64 CPU has NEON (it is part of the
 * base ISA), so these need no run-time check; on x86 this file is empty.
 * The tail (n mod 4 elements) is a scalar loop. */
#include "simd_isa.h"    /* only: the table in simd.c lists these, they never look back */

#if SIMD_HAVE_NEON
#include <arm_neon.h>

void simd_square_neon(const float *x, float *y, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        float32x4_t v = vld1q_f32(x + i);
        vst1q_f32(y + i, vmulq_f32(v, v));
    }
    for (; i < n; i++) y[i] = x[i] * x[i];
}

void simd_saxpy_neon(float a, const float *x, float *y, size_t n)
{
    float32x4_t va = vdupq_n_f32(a);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) vst1q_f32(y + i, vfmaq_f32(vld1q_f32(y + i), va, vld1q_f32(x + i)));
    for (; i < n; i++) y[i] = a * x[i] + y[i];
}

/* vbslq_f32(m, a, b): bitwise select, a where the mask is set, else b. */
void simd_piecewise_neon(const float *x, float *y, size_t n)
{
    const float32x4_t zero = vdupq_n_f32(0.0f), half = vdupq_n_f32(0.5f);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        float32x4_t v = vld1q_f32(x + i);
        uint32x4_t m = vcgeq_f32(v, zero);
        vst1q_f32(y + i, vbslq_f32(m, vmulq_f32(v, v), vmulq_f32(v, half)));
    }
    for (; i < n; i++) y[i] = x[i] >= 0.0f ? x[i] * x[i] : 0.5f * x[i];
}

#define NEON_DOT(K)                                                             \
    float simd_dot_neon_##K(const float *x, const float *y, size_t n)           \
    {                                                                           \
        float32x4_t acc[K];                                                     \
        for (int k = 0; k < K; k++) acc[k] = vdupq_n_f32(0.0f);                 \
        size_t i = 0;                                                           \
        for (; i + 4 * K <= n; i += 4 * K)                                      \
            for (int k = 0; k < K; k++)                                         \
                acc[k] = vfmaq_f32(acc[k], vld1q_f32(x + i + 4 * k), vld1q_f32(y + i + 4 * k)); \
        for (; i + 4 <= n; i += 4) acc[0] = vfmaq_f32(acc[0], vld1q_f32(x + i), vld1q_f32(y + i)); \
        for (int k = 1; k < K; k++) acc[0] = vaddq_f32(acc[0], acc[k]);         \
        float s = vaddvq_f32(acc[0]);                                           \
        for (; i < n; i++) s += x[i] * y[i];                                    \
        return s;                                                               \
    }
NEON_DOT(1) NEON_DOT(2) NEON_DOT(4) NEON_DOT(8)

#else
typedef int simd_neon_unused;
#endif
