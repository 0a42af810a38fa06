/* kernels/gemm_x86.c: the micro-kernels of chapter 07's packed GEMM rungs
 * for x86: AVX-512 (16 floats a register, 32 registers), AVX2+FMA (8, 16
 * registers) and SSE2 (4, 16 registers, no FMA).
 *
 * Each keeps an MR x NR tile of C in registers for the whole kc loop. Per
 * step p it loads NR/lanes vectors of the B sliver, broadcasts the MR values
 * of the A sliver one at a time, and does MR * NR/lanes FMAs. So the tile
 * shape is set by the register file:
 *   accumulators MR * NR/lanes + B vectors NR/lanes + 1 broadcast <= registers,
 * and the loads per FMA, (MR + NR/lanes) / (MR * NR/lanes), should be small
 * (two FMA pipes but only two or three loads a cycle). The kernels here are
 * one macro instantiated per shape; `--tile` in chapter 07 picks among them.
 *
 * Every function carries __attribute__((target(...))) (as kernels/simd_x86.c
 * does): compiled for its ISA whatever the build's flags; gemm.c calls it
 * only when the probe says the CPU has that ISA.
 */
#include "gemm_ukernel.h"

#include <stddef.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f")))
#define AVX2 __attribute__((target("avx2,fma")))
#define SSE __attribute__((target("sse2")))

/* The tile as an array of registers: the loops over it have constant bounds,
 * so the compiler unrolls them and keeps every element in a register
 * (objdump of gemm_x86.o, gcc 12 and clang 14: the p loop of the 14 x 32
 * kernel is 2 loads, 14 broadcasts and 28 FMAs, no stack access; gcc moves
 * the tile through the stack once after the loop, per KC steps). VEC, LOAD,
 * SET1, FMA, ADD, STORE, ZERO name the ISA's intrinsics; NV = NR / lanes
 * vectors per row. */
#define UKERNEL(NAME, ATTR, VEC, LANES, MR, NV, ZERO, LOAD, LOADU, STOREU, SET1, FMA, ADD)              \
    ATTR static void NAME(int kc, const float *a, const float *b, float *c, int ldc, int accumulate)    \
    {                                                                                                   \
        VEC acc[MR][NV];                                                                                \
        for (int i = 0; i < MR; i++)                                                                    \
            for (int j = 0; j < NV; j++) acc[i][j] = ZERO();                                            \
        /* Ask for the C tile now: it is needed only after the kc loop, and \
         * its rows are ldc floats apart, too far for the prefetcher. */     \
        for (int i = 0; i < MR; i++)                                                                    \
            for (int j = 0; j < NV * LANES; j += 16)                                                    \
                _mm_prefetch((const char *)(c + (size_t)i * (size_t)ldc + j), _MM_HINT_T0);             \
        for (int p = 0; p < kc; p++) {                                                                  \
            VEC bv[NV];                                                                                 \
            for (int j = 0; j < NV; j++) bv[j] = LOAD(b + j * LANES);                                   \
            for (int i = 0; i < MR; i++) {                                                              \
                VEC av = SET1(a[i]);                                                                    \
                for (int j = 0; j < NV; j++) acc[i][j] = FMA(av, bv[j], acc[i][j]);                     \
            }                                                                                           \
            a += MR;                                                                                    \
            b += NV * LANES;                                                                            \
        }                                                                                               \
        for (int i = 0; i < MR; i++)                                                                    \
            for (int j = 0; j < NV; j++) {                                                              \
                float *cij = c + (size_t)i * (size_t)ldc + j * LANES;                                   \
                STOREU(cij, accumulate ? ADD(LOADU(cij), acc[i][j]) : acc[i][j]);                       \
            }                                                                                           \
    }

/* SSE2 has no FMA: a multiply, then an add (two roundings; the tolerance of
 * gemm_tolerance covers any order and either kind of rounding). */
SSE static inline __m128 sse_muladd(__m128 a, __m128 b, __m128 c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }

/* AVX-512: 32 zmm registers of 16 floats.
 *   14 x 32: 28 accumulators + 2 B vectors + 1 broadcast = 31 registers;
 *            2 loads and 14 broadcasts per 28 FMAs (0.57 loads per FMA),
 *            the most FMAs per B load of the shapes that fit.
 *    8 x 48: 24 + 3 + 1 = 28; 11 loads per 24 FMAs (0.46).
 *    6 x 64: 24 + 4 + 1 = 29; 10 loads per 24 FMAs (0.42), but C rows of
 *            64 floats: 4 cache lines per row of the tile.
 * The broadcast is an FMA operand ({1to16}) for the compiler, so it costs a
 * load, not a register. Measured on Zen 5 against OpenBLAS in the same run:
 * 14 x 32 0.97x, 8 x 48 0.975x, 6 x 64 0.95x (chapter 07's README). */
UKERNEL(uk_avx512_14x32, AVX512, __m512, 16, 14, 2, _mm512_setzero_ps, _mm512_load_ps, _mm512_loadu_ps,
        _mm512_storeu_ps, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps)
UKERNEL(uk_avx512_8x48, AVX512, __m512, 16, 8, 3, _mm512_setzero_ps, _mm512_load_ps, _mm512_loadu_ps,
        _mm512_storeu_ps, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps)
UKERNEL(uk_avx512_6x64, AVX512, __m512, 16, 6, 4, _mm512_setzero_ps, _mm512_load_ps, _mm512_loadu_ps,
        _mm512_storeu_ps, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps)

/* AVX2: 16 ymm registers of 8 floats.
 *   6 x 16: 12 accumulators + 2 B vectors + 1 broadcast = 15 (the shape
 *           BLIS and OpenBLAS use on Haswell); 8 loads per 12 FMAs.
 *   4 x 24: 12 + 3 + 1 = 16; 7 loads per 12 FMAs, no register to spare. */
UKERNEL(uk_avx2_6x16, AVX2, __m256, 8, 6, 2, _mm256_setzero_ps, _mm256_load_ps, _mm256_loadu_ps,
        _mm256_storeu_ps, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps)
UKERNEL(uk_avx2_4x24, AVX2, __m256, 8, 4, 3, _mm256_setzero_ps, _mm256_load_ps, _mm256_loadu_ps,
        _mm256_storeu_ps, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps)

/* SSE2: 16 xmm registers of 4 floats, and no FMA: a product needs its own
 * register before the add. 6 x 8: 12 accumulators + 2 B + 1 broadcast + 1
 * product = 16. */
UKERNEL(uk_sse_6x8, SSE, __m128, 4, 6, 2, _mm_setzero_ps, _mm_load_ps, _mm_loadu_ps,
        _mm_storeu_ps, _mm_set1_ps, sse_muladd, _mm_add_ps)

const gemm_ukernel gemm_ukernels_x86[] = {
    { PW_ISA_AVX512, 14, 32, uk_avx512_14x32, "32 zmm: 14x2 accumulators + 2 B + 1 broadcast = 31; 16 loads per 28 FMAs" },
    { PW_ISA_AVX512, 8, 48, uk_avx512_8x48, "32 zmm: 8x3 accumulators + 3 B + 1 broadcast = 28; 11 loads per 24 FMAs" },
    { PW_ISA_AVX512, 6, 64, uk_avx512_6x64, "32 zmm: 6x4 accumulators + 4 B + 1 broadcast = 29; 10 loads per 24 FMAs" },
    { PW_ISA_AVX2, 6, 16, uk_avx2_6x16, "16 ymm: 6x2 accumulators + 2 B + 1 broadcast = 15; 8 loads per 12 FMAs" },
    { PW_ISA_AVX2, 4, 24, uk_avx2_4x24, "16 ymm: 4x3 accumulators + 3 B + 1 broadcast = 16; 7 loads per 12 FMAs" },
    { PW_ISA_SSE, 6, 8, uk_sse_6x8, "16 xmm, no FMA: 6x2 accumulators + 2 B + 1 broadcast + 1 product = 16" },
};
const int gemm_ukernels_x86_n = (int)(sizeof gemm_ukernels_x86 / sizeof gemm_ukernels_x86[0]);
#else
const gemm_ukernel gemm_ukernels_x86[1];
const int gemm_ukernels_x86_n = 0;
#endif
