/* kernels/simd_x86.c: chapter 02's hand-written rungs for x86: SSE2 (4
 * floats per instruction), AVX2+FMA (8) and AVX-512 (16), plus the bf16 dot
 * product of AVX-512 BF16 (32 bf16 pairs per instruction).
 *
 * Every function carries __attribute__((target("..."))): it is compiled for
 * that ISA even when the rest of the build is not (no -march=native, or an
 * older CPU), and the caller picks one at run time with simd_runs_here()
 * (kernels/simd.c), which asks the CPU (common/probe.h). Calling an AVX-512
 * function on a CPU without AVX-512 dies with SIGILL.
 *
 * The tail: n is rarely a multiple of the lanes. SSE and AVX2 finish the last
 * n mod 4 (or 8) elements with a scalar loop; AVX-512 does them with one
 * masked load and store (lanes whose mask bit is 0 are not read or written,
 * so nothing past the end of the arrays is touched).
 */
#include "simd_isa.h"    /* only: the table in simd.c lists these, they never look back */

#if SIMD_HAVE_X86
#include <immintrin.h>

#define SSE __attribute__((target("sse2")))
#define AVX2 __attribute__((target("avx2,fma")))
#define AVX512 __attribute__((target("avx512f")))
#define AVX512BF16 __attribute__((target("avx512f,avx512bw,avx512bf16")))

/* Mask of the first r lanes of 16 (r < 16): the AVX-512 tail. */
#define TAIL16(r) ((__mmask16)((1u << (r)) - 1u))

/* ---- square: y = x*x ------------------------------------------------------ */

SSE void simd_square_sse(const float *x, float *y, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128 v = _mm_loadu_ps(x + i);
        _mm_storeu_ps(y + i, _mm_mul_ps(v, v));
    }
    for (; i < n; i++) y[i] = x[i] * x[i];
}

AVX2 void simd_square_avx2(const float *x, float *y, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        _mm256_storeu_ps(y + i, _mm256_mul_ps(v, v));
    }
    for (; i < n; i++) y[i] = x[i] * x[i];
}

AVX512 void simd_square_avx512(const float *x, float *y, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 v = _mm512_loadu_ps(x + i);
        _mm512_storeu_ps(y + i, _mm512_mul_ps(v, v));
    }
    if (i < n) {
        __mmask16 m = TAIL16(n - i);
        __m512 v = _mm512_maskz_loadu_ps(m, x + i);
        _mm512_mask_storeu_ps(y + i, m, _mm512_mul_ps(v, v));
    }
}

/* ---- saxpy: y = a*x + y ------------------------------------------------------ */

/* SSE2 has no FMA: a multiply, then an add (two roundings, like C). */
SSE void simd_saxpy_sse(float a, const float *x, float *y, size_t n)
{
    __m128 va = _mm_set1_ps(a);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        _mm_storeu_ps(y + i, _mm_add_ps(_mm_mul_ps(va, _mm_loadu_ps(x + i)), _mm_loadu_ps(y + i)));
    for (; i < n; i++) y[i] = a * x[i] + y[i];
}

/* With FMA a*x + y is one instruction and one rounding. */
AVX2 void simd_saxpy_avx2(float a, const float *x, float *y, size_t n)
{
    __m256 va = _mm256_set1_ps(a);
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(y + i, _mm256_fmadd_ps(va, _mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
    for (; i < n; i++) y[i] = a * x[i] + y[i];
}

AVX512 void simd_saxpy_avx512(float a, const float *x, float *y, size_t n)
{
    __m512 va = _mm512_set1_ps(a);
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(y + i, _mm512_fmadd_ps(va, _mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i)));
    if (i < n) {
        __mmask16 m = TAIL16(n - i);
        __m512 r = _mm512_fmadd_ps(va, _mm512_maskz_loadu_ps(m, x + i), _mm512_maskz_loadu_ps(m, y + i));
        _mm512_mask_storeu_ps(y + i, m, r);
    }
}

/* ---- dot: s = sum x*y, with K independent accumulators ------------------------
 * One accumulator makes every FMA wait for the one before (about 4 cycles of
 * latency); K accumulators keep K FMAs in flight. The K partial sums are
 * added at the end, in a fixed order: a different order of rounding from the
 * scalar chain, so results differ in the last bits (see the checks).
 * K is a constant in each function, so acc[] lives in registers. */

/* SSE2: multiply and add (no FMA). */
#define SSE_DOT(K)                                                              \
    SSE float simd_dot_sse_##K(const float *x, const float *y, size_t n)        \
    {                                                                           \
        __m128 acc[K];                                                          \
        for (int k = 0; k < K; k++) acc[k] = _mm_setzero_ps();                  \
        size_t i = 0;                                                           \
        for (; i + 4 * K <= n; i += 4 * K)                                      \
            for (int k = 0; k < K; k++)                                         \
                acc[k] = _mm_add_ps(acc[k], _mm_mul_ps(_mm_loadu_ps(x + i + 4 * k), \
                                                       _mm_loadu_ps(y + i + 4 * k))); \
        for (; i + 4 <= n; i += 4)                                              \
            acc[0] = _mm_add_ps(acc[0], _mm_mul_ps(_mm_loadu_ps(x + i), _mm_loadu_ps(y + i))); \
        for (int k = 1; k < K; k++) acc[0] = _mm_add_ps(acc[0], acc[k]);        \
        float lane[4];                                                          \
        _mm_storeu_ps(lane, acc[0]);                                            \
        float s = (lane[0] + lane[1]) + (lane[2] + lane[3]);                    \
        for (; i < n; i++) s += x[i] * y[i];                                    \
        return s;                                                               \
    }
SSE_DOT(1) SSE_DOT(2) SSE_DOT(4) SSE_DOT(8)

#define AVX2_DOT(K)                                                             \
    AVX2 float simd_dot_avx2_##K(const float *x, const float *y, size_t n)      \
    {                                                                           \
        __m256 acc[K];                                                          \
        for (int k = 0; k < K; k++) acc[k] = _mm256_setzero_ps();               \
        size_t i = 0;                                                           \
        for (; i + 8 * K <= n; i += 8 * K)                                      \
            for (int k = 0; k < K; k++)                                         \
                acc[k] = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 8 * k),        \
                                         _mm256_loadu_ps(y + i + 8 * k), acc[k]); \
        for (; i + 8 <= n; i += 8)                                              \
            acc[0] = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i), acc[0]); \
        for (int k = 1; k < K; k++) acc[0] = _mm256_add_ps(acc[0], acc[k]);     \
        __m128 h = _mm_add_ps(_mm256_castps256_ps128(acc[0]), _mm256_extractf128_ps(acc[0], 1)); \
        float lane[4];                                                          \
        _mm_storeu_ps(lane, h);                                                 \
        float s = (lane[0] + lane[1]) + (lane[2] + lane[3]);                    \
        for (; i < n; i++) s += x[i] * y[i];                                    \
        return s;                                                               \
    }
AVX2_DOT(1) AVX2_DOT(2) AVX2_DOT(4) AVX2_DOT(8)

#define AVX512_DOT(K)                                                           \
    AVX512 float simd_dot_avx512_##K(const float *x, const float *y, size_t n)  \
    {                                                                           \
        __m512 acc[K];                                                          \
        for (int k = 0; k < K; k++) acc[k] = _mm512_setzero_ps();               \
        size_t i = 0;                                                           \
        for (; i + 16 * K <= n; i += 16 * K)                                    \
            for (int k = 0; k < K; k++)                                         \
                acc[k] = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 16 * k),       \
                                         _mm512_loadu_ps(y + i + 16 * k), acc[k]); \
        for (; i + 16 <= n; i += 16)                                            \
            acc[0] = _mm512_fmadd_ps(_mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i), acc[0]); \
        if (i < n) {                                                            \
            __mmask16 m = TAIL16(n - i);                                        \
            acc[0] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x + i),           \
                                     _mm512_maskz_loadu_ps(m, y + i), acc[0]);  \
        }                                                                       \
        for (int k = 1; k < K; k++) acc[0] = _mm512_add_ps(acc[0], acc[k]);     \
        return _mm512_reduce_add_ps(acc[0]);                                    \
    }
AVX512_DOT(1) AVX512_DOT(2) AVX512_DOT(4) AVX512_DOT(8)

/* bf16: VDPBF16PS multiplies 32 pairs of bf16 and adds each neighbouring
 * pair of products into one of 16 fp32 lanes: 64 flops per instruction from
 * 128 bytes of input, where the fp32 FMA does 32 flops from 128 bytes. Four
 * accumulators, as for fp32. The tail (n mod 32) is done in fp32: a bf16
 * widens to fp32 exactly (append 16 zero bits). */
AVX512BF16 float simd_dot_bf16_avx512(const uint16_t *x, const uint16_t *y, size_t n)
{
    __m512 acc0 = _mm512_setzero_ps(), acc1 = acc0, acc2 = acc0, acc3 = acc0;
    size_t i = 0;
#define BF(p) ((__m512bh)_mm512_loadu_si512((const void *)(p)))
    for (; i + 128 <= n; i += 128) {
        acc0 = _mm512_dpbf16_ps(acc0, BF(x + i), BF(y + i));
        acc1 = _mm512_dpbf16_ps(acc1, BF(x + i + 32), BF(y + i + 32));
        acc2 = _mm512_dpbf16_ps(acc2, BF(x + i + 64), BF(y + i + 64));
        acc3 = _mm512_dpbf16_ps(acc3, BF(x + i + 96), BF(y + i + 96));
    }
    for (; i + 32 <= n; i += 32) acc0 = _mm512_dpbf16_ps(acc0, BF(x + i), BF(y + i));
#undef BF
    float s = _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(acc0, acc1), _mm512_add_ps(acc2, acc3)));
    for (; i < n; i++) s += simd_bf16_to_float(x[i]) * simd_bf16_to_float(y[i]);
    return s;
}

/* ---- piecewise: y = x >= 0 ? x*x : x/2, with a mask instead of a branch ------
 * Every lane computes both arms; a compare makes a mask (all ones where
 * x >= 0), and a blend keeps, per lane, the arm the mask selects. No jump,
 * so nothing to mispredict: the time does not depend on the data. (A GPU
 * warp does the same when its threads disagree on an if: divergence.) */

/* SSE2 has no blend instruction (SSE4.1 added one): and, andnot, or. */
SSE void simd_piecewise_sse(const float *x, float *y, size_t n)
{
    const __m128 zero = _mm_setzero_ps(), half = _mm_set1_ps(0.5f);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128 v = _mm_loadu_ps(x + i);
        __m128 m = _mm_cmpge_ps(v, zero);
        __m128 pos = _mm_mul_ps(v, v), neg = _mm_mul_ps(v, half);
        _mm_storeu_ps(y + i, _mm_or_ps(_mm_and_ps(m, pos), _mm_andnot_ps(m, neg)));
    }
    for (; i < n; i++) y[i] = x[i] >= 0.0f ? x[i] * x[i] : 0.5f * x[i];
}

AVX2 void simd_piecewise_avx2(const float *x, float *y, size_t n)
{
    const __m256 zero = _mm256_setzero_ps(), half = _mm256_set1_ps(0.5f);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        __m256 m = _mm256_cmp_ps(v, zero, _CMP_GE_OQ);
        /* blendv takes the second operand where the mask is set */
        _mm256_storeu_ps(y + i, _mm256_blendv_ps(_mm256_mul_ps(v, half), _mm256_mul_ps(v, v), m));
    }
    for (; i < n; i++) y[i] = x[i] >= 0.0f ? x[i] * x[i] : 0.5f * x[i];
}

/* AVX-512 masks live in their own registers (k0-k7), one bit per lane. */
AVX512 void simd_piecewise_avx512(const float *x, float *y, size_t n)
{
    const __m512 zero = _mm512_setzero_ps(), half = _mm512_set1_ps(0.5f);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 v = _mm512_loadu_ps(x + i);
        __mmask16 m = _mm512_cmp_ps_mask(v, zero, _CMP_GE_OQ);
        _mm512_storeu_ps(y + i, _mm512_mask_blend_ps(m, _mm512_mul_ps(v, half), _mm512_mul_ps(v, v)));
    }
    if (i < n) {
        __mmask16 t = TAIL16(n - i);
        __m512 v = _mm512_maskz_loadu_ps(t, x + i);
        __mmask16 m = _mm512_cmp_ps_mask(v, zero, _CMP_GE_OQ);
        _mm512_mask_storeu_ps(y + i, t, _mm512_mask_blend_ps(m, _mm512_mul_ps(v, half), _mm512_mul_ps(v, v)));
    }
}

#else
/* Not x86: the rungs are in simd_neon.c (AArch64) or absent. ISO C wants a
 * declaration in every file. */
typedef int simd_x86_unused;
#endif
