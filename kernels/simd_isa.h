/* kernels/simd_isa.h: chapter 02's hand-written rungs, declared per
 * architecture (SIMD_HAVE_X86, SIMD_HAVE_NEON), and the bf16 conversions
 * the x86 bf16 dot shares with simd.c.
 *
 * The floor of the SIMD ladder: simd_x86.c and simd_neon.c define these
 * rungs and include only this header; simd.c (through simd.h) puts them in
 * the table and calls them. So the files depend one way, simd.c ->
 * simd_x86.c -> simd_isa.h, and a rung file never reaches back up into the
 * table it is listed in.
 */
#ifndef PW_SIMD_ISA_H
#define PW_SIMD_ISA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- bf16: the top 16 bits of a float ----------------------------------------
 * bf16 keeps float's 8-bit exponent and 7 of its 23 mantissa bits. */

/* Round to nearest, ties to even: add just under half of the dropped part,
 * plus one if the kept part is odd, then drop 16 bits. This is what
 * VCVTNE2PS2BF16 does. A NaN stays a NaN (a quiet bit set, so the mantissa
 * cannot round to zero and make it infinity). */
static inline uint16_t simd_float_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static inline float simd_bf16_to_float(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* ---- the hand-written rungs (defined per architecture) ------------------- */
#if defined(__x86_64__) || defined(__i386__)
#define SIMD_HAVE_X86 1
void simd_square_sse(const float *x, float *y, size_t n);
void simd_square_avx2(const float *x, float *y, size_t n);
void simd_square_avx512(const float *x, float *y, size_t n);
void simd_saxpy_sse(float a, const float *x, float *y, size_t n);
void simd_saxpy_avx2(float a, const float *x, float *y, size_t n);
void simd_saxpy_avx512(float a, const float *x, float *y, size_t n);
void simd_piecewise_sse(const float *x, float *y, size_t n);
void simd_piecewise_avx2(const float *x, float *y, size_t n);
void simd_piecewise_avx512(const float *x, float *y, size_t n);
#define SIMD_DOT_DECL(isa) \
    float simd_dot_##isa##_1(const float *x, const float *y, size_t n); \
    float simd_dot_##isa##_2(const float *x, const float *y, size_t n); \
    float simd_dot_##isa##_4(const float *x, const float *y, size_t n); \
    float simd_dot_##isa##_8(const float *x, const float *y, size_t n);
SIMD_DOT_DECL(sse)
SIMD_DOT_DECL(avx2)
SIMD_DOT_DECL(avx512)
float simd_dot_bf16_avx512(const uint16_t *x, const uint16_t *y, size_t n);
#endif
#if defined(__aarch64__)
#define SIMD_HAVE_NEON 1
void simd_square_neon(const float *x, float *y, size_t n);
void simd_saxpy_neon(float a, const float *x, float *y, size_t n);
void simd_piecewise_neon(const float *x, float *y, size_t n);
float simd_dot_neon_1(const float *x, const float *y, size_t n);
float simd_dot_neon_2(const float *x, const float *y, size_t n);
float simd_dot_neon_4(const float *x, const float *y, size_t n);
float simd_dot_neon_8(const float *x, const float *y, size_t n);
#endif

#endif
