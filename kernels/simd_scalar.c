/* kernels/simd_scalar.c: the bottom rung of chapter 02's ladders, one element
 * per instruction.
 *
 * This file is built with the vectoriser off (KFLAGS_simd_scalar in
 * chapters/02-simd/chapter.mk: -fno-tree-vectorize -fno-tree-slp-vectorize,
 * spelt the same for gcc and clang), so its loops compile to scalar
 * instructions (vmulss, vfmadd...ss: one float each) even under
 * -march=native. tests/ch02.sh checks that with objdump: no packed (..ps)
 * arithmetic (add, mul, FMA, ...) in this object file. Packed moves and
 * selects may appear: clang picks between two scalars with vblendvps or
 * andps/andnps/orps on an xmm register, which computes nothing on more
 * lanes, so it still counts as scalar. Without the flags, -O3 would vectorise
 * square and saxpy exactly like simd.c's "auto" rungs, and the ladder would
 * start on its second step.
 */
#include "simd.h"

void simd_square_scalar(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] * x[i];
}

void simd_saxpy_scalar(float a, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}

/* One accumulator: each add waits for the previous one (one chain). */
float simd_dot_scalar(const float *x, const float *y, size_t n)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

void simd_piecewise_scalar(const float *x, float *y, size_t n)
{
    /* Both arms are one multiply and no call, so a compiler MAY compute both
     * and select; whether it does is its choice. clang 14 does (a compare
     * and a select, no jump); gcc 12 keeps a compare and a jump, so with
     * gcc this rung, too, pays for mispredicted branches on random data
     * (chapters/02-simd/branches.c shows it). */
    for (size_t i = 0; i < n; i++) y[i] = x[i] >= 0.0f ? x[i] * x[i] : 0.5f * x[i];
}

/* The negative arm as a call the compiler must keep: noinline (and, for
 * gcc, noipa: no cloning or propagation across the call either). A loop
 * that calls a function per element can neither be vectorised nor turned
 * into a select; each element takes a real conditional jump. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((noinline, noipa))
#else
__attribute__((noinline))
#endif
static float negative_arm(float v)
{
    return 0.5f * v;
}

void simd_piecewise_branch(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (x[i] >= 0.0f) y[i] = x[i] * x[i];
        else y[i] = negative_arm(x[i]);
    }
}
