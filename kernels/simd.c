/* kernels/simd.c: chapter 02's auto-vectorised rungs, the references, and
 * the table of every variant with the run-time choice between them.
 *
 * The "auto" loops are the plain C loops, built like everything else with
 * -O3 -march=native: the compiler vectorises them for the ISA the build
 * targets (tests/ch02.sh checks the object file holds packed arithmetic).
 * Two exceptions teach the most: simd_dot_auto, a sum, is not vectorised,
 * because C fixes the order of float additions and a vector sum would
 * change it (simd_dot_auto16 changes the order in the source instead); and
 * simd_piecewise_auto is vectorised by gcc only when AVX-512 masks make it
 * safe under C's trap rules (simd_notrap.c).
 */
#include "simd.h"

#include <string.h>

/* ---- auto-vectorised ------------------------------------------------------ */

void simd_square_auto(const float *restrict x, float *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] * x[i];
}

void simd_saxpy_auto(float a, const float *restrict x, float *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}

float simd_dot_auto(const float *x, const float *y, size_t n)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

/* 16 partial sums, p[k] over i = k mod 16: the inner loop over k is 16
 * independent multiply-adds, which the compiler maps onto one 16-lane or
 * two 8-lane registers. The tail (n mod 16 elements) goes to p[0]. */
float simd_dot_auto16(const float *restrict x, const float *restrict y, size_t n)
{
    float p[16] = { 0 };
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        for (int k = 0; k < 16; k++) p[k] += x[i + k] * y[i + k];
    for (; i < n; i++) p[0] += x[i] * y[i];
    float s = 0.0f;
    for (int k = 0; k < 16; k++) s += p[k];
    return s;
}

void simd_piecewise_auto(const float *restrict x, float *restrict y, size_t n)
{
    /* Vectorised, where it is, with a compare and a blend: both arms for
     * every lane. gcc does that only with AVX-512 masks unless told
     * -fno-trapping-math (kernels/simd_notrap.c says why); below AVX-512 it
     * keeps a compare and a jump per element. */
    for (size_t i = 0; i < n; i++) y[i] = x[i] >= 0.0f ? x[i] * x[i] : 0.5f * x[i];
}

/* ---- bf16 ------------------------------------------------------------------ */

void simd_to_bf16(const float *x, uint16_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) out[i] = simd_float_to_bf16(x[i]);
}

bool simd_bf16_runs_here(const pw_hw *hw)
{
#if SIMD_HAVE_X86
    return hw->isa >= PW_ISA_AVX512 && hw->isa != PW_ISA_NEON && hw->bf16;
#else
    (void)hw;
    return false;
#endif
}

float simd_dot_bf16(const uint16_t *x, const uint16_t *y, size_t n)
{
#if SIMD_HAVE_X86
    return simd_dot_bf16_avx512(x, y, n);
#else
    /* Not reached (simd_bf16_runs_here is false): the same sum in fp32. */
    float s = 0.0f;
    for (size_t i = 0; i < n; i++) s += simd_bf16_to_float(x[i]) * simd_bf16_to_float(y[i]);
    return s;
#endif
}

/* ---- references --------------------------------------------------------------- */

/* One float multiply rounds the exact product once; in double the product
 * is exact (24 + 24 bits fit in 53), so rounding it to float gives the same
 * float: square and piecewise must match these bit for bit. */
void simd_square_ref(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = (float)((double)x[i] * (double)x[i]);
}

void simd_saxpy_ref(float a, const float *x, const float *y_in, float *y_out, size_t n)
{
    for (size_t i = 0; i < n; i++) y_out[i] = (float)((double)a * x[i] + (double)y_in[i]);
}

double simd_dot_ref(const float *x, const float *y, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += (double)x[i] * (double)y[i];
    return s;
}

double simd_dot_abs_ref(const float *x, const float *y, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        double p = (double)x[i] * (double)y[i];
        s += p < 0 ? -p : p;
    }
    return s;
}

void simd_piecewise_ref(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = x[i] >= 0.0f ? (float)((double)x[i] * x[i]) : (float)(0.5 * x[i]);
}

/* ---- the table ------------------------------------------------------------------ */

#define MAP(nm, k, isa, lanes, fn)  { nm, k, isa, lanes, 0, false, fn, NULL, NULL }
#define AXPY(nm, isa, lanes, fn)    { nm, SIMD_SAXPY, isa, lanes, 0, false, NULL, fn, NULL }
#define DOT(nm, isa, lanes, acc, fn) { nm, SIMD_DOT, isa, lanes, acc, false, NULL, NULL, fn }
#define DOTS(isa_name, ISA, lanes)                                              \
    DOT("dot_" #isa_name "_1acc", ISA, lanes, 1, simd_dot_##isa_name##_1),      \
    DOT("dot_" #isa_name "_2acc", ISA, lanes, 2, simd_dot_##isa_name##_2),      \
    DOT("dot_" #isa_name "_4acc", ISA, lanes, 4, simd_dot_##isa_name##_4),      \
    DOT("dot_" #isa_name "_8acc", ISA, lanes, 8, simd_dot_##isa_name##_8)

/* Order: per kernel, scalar first (the baseline every speedup divides),
 * then auto, then the ISAs from narrow to wide. */
const simd_variant simd_variants[] = {
    MAP("square_scalar", SIMD_SQUARE, PW_ISA_SCALAR, 1, simd_square_scalar),
    MAP("square_auto", SIMD_SQUARE, PW_ISA_SCALAR, 0, simd_square_auto),
#if SIMD_HAVE_X86
    MAP("square_sse", SIMD_SQUARE, PW_ISA_SSE, 4, simd_square_sse),
    MAP("square_avx2", SIMD_SQUARE, PW_ISA_AVX2, 8, simd_square_avx2),
    MAP("square_avx512", SIMD_SQUARE, PW_ISA_AVX512, 16, simd_square_avx512),
#endif
#if SIMD_HAVE_NEON
    MAP("square_neon", SIMD_SQUARE, PW_ISA_NEON, 4, simd_square_neon),
#endif

    AXPY("saxpy_scalar", PW_ISA_SCALAR, 1, simd_saxpy_scalar),
    AXPY("saxpy_auto", PW_ISA_SCALAR, 0, simd_saxpy_auto),
#if SIMD_HAVE_X86
    AXPY("saxpy_sse", PW_ISA_SSE, 4, simd_saxpy_sse),
    AXPY("saxpy_avx2", PW_ISA_AVX2, 8, simd_saxpy_avx2),
    AXPY("saxpy_avx512", PW_ISA_AVX512, 16, simd_saxpy_avx512),
#endif
#if SIMD_HAVE_NEON
    AXPY("saxpy_neon", PW_ISA_NEON, 4, simd_saxpy_neon),
#endif

    DOT("dot_scalar", PW_ISA_SCALAR, 1, 1, simd_dot_scalar),
    DOT("dot_auto", PW_ISA_SCALAR, 0, 1, simd_dot_auto),
    DOT("dot_auto16", PW_ISA_SCALAR, 0, 16, simd_dot_auto16),
#if SIMD_HAVE_X86
    DOTS(sse, PW_ISA_SSE, 4),
    DOTS(avx2, PW_ISA_AVX2, 8),
    DOTS(avx512, PW_ISA_AVX512, 16),
#endif
#if SIMD_HAVE_NEON
    DOTS(neon, PW_ISA_NEON, 4),
#endif

    MAP("piecewise_scalar", SIMD_PIECEWISE, PW_ISA_SCALAR, 1, simd_piecewise_scalar),
    { "piecewise_branch", SIMD_PIECEWISE, PW_ISA_SCALAR, 1, 0, true, simd_piecewise_branch, NULL, NULL },
    MAP("piecewise_auto", SIMD_PIECEWISE, PW_ISA_SCALAR, 0, simd_piecewise_auto),
    MAP("piecewise_notrap", SIMD_PIECEWISE, PW_ISA_SCALAR, 0, simd_piecewise_notrap),
#if SIMD_HAVE_X86
    MAP("piecewise_sse", SIMD_PIECEWISE, PW_ISA_SSE, 4, simd_piecewise_sse),
    MAP("piecewise_avx2", SIMD_PIECEWISE, PW_ISA_AVX2, 8, simd_piecewise_avx2),
    MAP("piecewise_avx512", SIMD_PIECEWISE, PW_ISA_AVX512, 16, simd_piecewise_avx512),
#endif
#if SIMD_HAVE_NEON
    MAP("piecewise_neon", SIMD_PIECEWISE, PW_ISA_NEON, 4, simd_piecewise_neon),
#endif
};
const int simd_nvariants = (int)(sizeof simd_variants / sizeof simd_variants[0]);

const char *simd_kernel_name(simd_kernel k)
{
    static const char *names[] = { "square", "saxpy", "dot", "piecewise" };
    return k < SIMD_NKERNELS ? names[k] : "?";
}

/* x86's ISAs nest (AVX-512 CPUs have AVX2, which have SSE), so "at least"
 * is a comparison; NEON is its own branch of the tree. */
bool simd_runs_here(const simd_variant *v, const pw_hw *hw)
{
    if (v->isa == PW_ISA_SCALAR) return true;
    if (v->isa == PW_ISA_NEON || hw->isa == PW_ISA_NEON) return v->isa == hw->isa;
    return hw->isa >= v->isa;
}

const simd_variant *simd_best(simd_kernel k, const pw_hw *hw)
{
    const simd_variant *best = NULL;
    for (int i = 0; i < simd_nvariants; i++) {
        const simd_variant *v = &simd_variants[i];
        if (v->kernel != k || v->branchy || !simd_runs_here(v, hw)) continue;
        if (k == SIMD_DOT && v->lanes > 1 && v->accumulators != 8) continue;
        if (!best || v->lanes > best->lanes) best = v;   /* lanes 0 (auto) never wins */
    }
    return best;   /* at least the scalar rung, which runs everywhere */
}

bool simd_parse_isa(const char *name, pw_isa *out)
{
    static const char *names[] = { "scalar", "sse", "avx2", "avx512", "neon" };
    for (int i = 0; i < 5; i++)
        if (!strcmp(name, names[i])) { *out = (pw_isa)i; return true; }
    return false;
}

void simd_cap_isa(pw_hw *hw, pw_isa cap)
{
    bool lower = cap == PW_ISA_SCALAR ||
                 (cap != PW_ISA_NEON && hw->isa != PW_ISA_NEON && cap < hw->isa);
    if (!lower) return;
    hw->isa = cap;
    hw->lanes = pw_isa_lanes(cap);
    if (cap != PW_ISA_AVX512) hw->bf16 = false;
    if (cap < PW_ISA_AVX2) hw->fma = false;
}

const simd_variant *simd_find(const char *name)
{
    for (int i = 0; i < simd_nvariants; i++)
        if (!strcmp(simd_variants[i].name, name)) return &simd_variants[i];
    return NULL;
}
