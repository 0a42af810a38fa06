/* kernels/simd.h: chapter 02's kernels, each as a ladder of SIMD variants.
 *
 * Four element-wise kernels, and per kernel the same ladder:
 *   scalar   one element per instruction: built with the vectoriser off
 *            (kernels/simd_scalar.c, see chapters/02-simd/chapter.mk);
 *   auto     the plain loop, vectorised by the compiler (-O3 -march=native)
 *            for whatever ISA the build targets (kernels/simd.c); piecewise
 *            also as "notrap", the same loop under -fno-trapping-math
 *            (kernels/simd_notrap.c);
 *   sse, avx2, avx512 (x86), neon (AArch64)
 *            hand-written intrinsics for 4, 8 and 16 floats per instruction
 *            (kernels/simd_x86.c, kernels/simd_neon.c, declared in
 *            kernels/simd_isa.h). Each x86 function
 *            carries __attribute__((target(...))), so it is compiled for its
 *            ISA whatever the build flags, and must only be called on a CPU
 *            that has it: simd_runs_here() says, from common/probe.h.
 *
 * Costs per element (flops; compulsory bytes: each input read once, each
 * output written once):
 *   square     y[i] = x[i]^2                       1 flop,  8 bytes
 *   saxpy      y[i] = a*x[i] + y[i]                2 flops, 12 bytes
 *   dot        s = sum x[i]*y[i]                   2 flops,  8 bytes
 *   piecewise  y[i] = x[i] >= 0 ? x[i]^2 : x[i]/2  1 flop,   8 bytes
 *              (a branch per element, or a mask: compute both arms, keep one)
 *
 * The references (simd_*_ref) compute in double; the programs check every
 * variant against them at awkward sizes (1, 7, 15, 17, 33, 1000003) before
 * timing anything.
 */
#ifndef PW_SIMD_H
#define PW_SIMD_H

#include "probe.h"
#include "simd_isa.h"      /* the hand-written rungs, SIMD_HAVE_X86/NEON, the bf16 conversions */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { SIMD_SQUARE, SIMD_SAXPY, SIMD_DOT, SIMD_PIECEWISE, SIMD_NKERNELS } simd_kernel;

typedef void (*simd_map_fn)(const float *x, float *y, size_t n);            /* square, piecewise */
typedef void (*simd_axpy_fn)(float a, const float *x, float *y, size_t n);  /* saxpy */
typedef float (*simd_dot_fn)(const float *x, const float *y, size_t n);     /* dot */

/* One rung of a ladder. Exactly one of map/axpy/dot is set, by kernel. */
typedef struct {
    const char *name;        /* "square_avx512": kernel, then variant */
    simd_kernel kernel;
    pw_isa isa;              /* the CPU must have this ISA (SCALAR: any) */
    int lanes;               /* floats per instruction; 0 = the compiler's choice */
    int accumulators;        /* dot: independent partial sums (0 elsewhere) */
    bool branchy;            /* piecewise with a real branch (a call in one arm) */
    simd_map_fn map;
    simd_axpy_fn axpy;
    simd_dot_fn dot;
} simd_variant;

extern const simd_variant simd_variants[];
extern const int simd_nvariants;

const char *simd_kernel_name(simd_kernel k);

/* Can this CPU (hw from pw_probe_static, maybe capped) run variant v? */
bool simd_runs_here(const simd_variant *v, const pw_hw *hw);

/* The widest hand-written variant of kernel k that runs on hw (for dot: the
 * widest ISA, with 8 accumulators); the scalar one where none does. */
const simd_variant *simd_best(simd_kernel k, const pw_hw *hw);

/* The ISA named "scalar", "sse", "avx2", "avx512" or "neon"; false if none. */
bool simd_parse_isa(const char *name, pw_isa *out);

/* Run as if the CPU had at most `cap`: for --isa, to see the fallbacks and
 * the "skipped" lines on a machine that has everything. A cap above what
 * the CPU has changes nothing (nothing can add an ISA the CPU lacks). */
void simd_cap_isa(pw_hw *hw, pw_isa cap);

/* Find a variant by name; NULL if this build has none by that name. */
const simd_variant *simd_find(const char *name);

/* ---- the scalar rungs (vectoriser off) ---------------------------------- */
void simd_square_scalar(const float *x, float *y, size_t n);
void simd_saxpy_scalar(float a, const float *x, float *y, size_t n);
float simd_dot_scalar(const float *x, const float *y, size_t n);
void simd_piecewise_scalar(const float *x, float *y, size_t n);
/* piecewise with a branch the compiler cannot turn into a mask: the
 * negative arm is a call, so every element needs a jump, and the time
 * depends on how well the branch predictor guesses x[i] >= 0. */
void simd_piecewise_branch(const float *x, float *y, size_t n);

/* ---- the auto-vectorised rungs ------------------------------------------- */
void simd_square_auto(const float *x, float *y, size_t n);
void simd_saxpy_auto(float a, const float *x, float *y, size_t n);
/* The plain dot loop: strict C float semantics fix the order of the adds,
 * so the compiler may not vectorise the sum: it stays one chain of adds.
 * (gcc 12 still does the multiplies a register at a time, 16 with
 * AVX-512, 8 with AVX2, 4 with SSE, then adds the products one by one in
 * order; clang 14 leaves the whole loop scalar.) */
float simd_dot_auto(const float *x, const float *y, size_t n);
/* The same dot rewritten for the vectoriser: 16 partial sums, the order
 * changed in the source, where the compiler is allowed to see it. */
float simd_dot_auto16(const float *x, const float *y, size_t n);
/* The plain piecewise loop. Vectorising it means computing both arms for
 * every lane and blending; under C's default float rules (gcc's
 * -ftrapping-math) that is allowed only with AVX-512's masked arithmetic, so
 * gcc keeps the branch on SSE and AVX2 builds. clang assumes no traps and
 * vectorises it everywhere. */
void simd_piecewise_auto(const float *x, float *y, size_t n);
/* The same source built with -fno-trapping-math (kernels/simd_notrap.c):
 * vectorised with any vector ISA, by gcc and clang alike. */
void simd_piecewise_notrap(const float *x, float *y, size_t n);

/* ---- bf16 (AVX-512 BF16): half the bytes, twice the lanes ------------------
 * bf16 keeps float's 8-bit exponent and 7 of its 23 mantissa bits: the top
 * 16 bits of a float. One value each way, simd_float_to_bf16 (round to
 * nearest, ties to even) and simd_bf16_to_float, are in simd_isa.h, beside
 * the x86 dot that uses them too. */
void simd_to_bf16(const float *x, uint16_t *out, size_t n);
/* True when this build has the bf16 dot (x86) and hw can run it. */
bool simd_bf16_runs_here(const pw_hw *hw);
/* sum x[i]*y[i] over bf16 inputs, fp32 accumulation (_mm512_dpbf16_ps, 32
 * pairs per instruction, 4 accumulators). 2 flops, 4 bytes per element.
 * Call only when simd_bf16_runs_here(). */
float simd_dot_bf16(const uint16_t *x, const uint16_t *y, size_t n);

/* ---- references, in double --------------------------------------------- */
void simd_square_ref(const float *x, float *y, size_t n);
void simd_saxpy_ref(float a, const float *x, const float *y_in, float *y_out, size_t n);
double simd_dot_ref(const float *x, const float *y, size_t n);
/* sum |x[i]*y[i]|: the scale a dot product's rounding error is measured on */
double simd_dot_abs_ref(const float *x, const float *y, size_t n);
void simd_piecewise_ref(const float *x, float *y, size_t n);

#endif
