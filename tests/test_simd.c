/* tests/test_simd.c: every SIMD rung of kernels/simd.h that this CPU runs is
 * right at sizes that are not multiples of its lanes and writes nothing
 * outside its output; a rung without a tail is caught; the run-time choice
 * falls back to what the CPU has; bf16 rounds to nearest even. */
#include "check.h"
#include "simd.h"
#include "unit.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define FENCE 16
#define POISON (-777.0f)
static const size_t sizes[] = { 0, 1, 7, 15, 17, 33, 1000003 };
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define MAXN 1000003

static float *xb, *yb, *y0, *want;

/* Run v at n with fenced buffers; 0 when right and the fences are intact. */
static int run_fenced(const simd_variant *v, size_t n)
{
    float *x = xb + FENCE, *y = yb + FENCE;
    for (size_t i = 0; i < n + 2 * FENCE; i++) yb[i] = POISON;
    pw_fill_random(x, n, 9 + n, -1.0f, 1.0f);
    pw_fill_random(y0, n, 10 + n, -1.0f, 1.0f);
    int bad = 0;
    switch (v->kernel) {
    case SIMD_SQUARE: v->map(x, y, n); simd_square_ref(x, want, n); bad = pw_check_floats(v->name, y, want, n, 0, 0); break;
    case SIMD_PIECEWISE: v->map(x, y, n); simd_piecewise_ref(x, want, n); bad = pw_check_floats(v->name, y, want, n, 0, 0); break;
    case SIMD_SAXPY:
        memcpy(y, y0, n * sizeof *y);
        v->axpy(0.75f, x, y, n);
        simd_saxpy_ref(0.75f, x, y0, want, n);
        bad = pw_check_floats(v->name, y, want, n, 1e-7, 2.4e-7);   /* 2 ulp: FMA or not */
        break;
    case SIMD_DOT: {
        /* whole numbers from {-2,-1,1,2}: exact in any order (sums < 2^24) */
        static const float vals[4] = { -2, -1, 1, 2 };
        pw_fill_random(y, n, 11 + n, 0.0f, 4.0f);
        for (size_t i = 0; i < n; i++) { x[i] = vals[(int)((x[i] + 1.0f) * 1.999f) & 3]; y[i] = vals[(int)y[i] & 3]; }
        bad = pw_check_scalar(v->name, v->dot(x, y, n), simd_dot_ref(x, y, n), 0, 0);
        for (size_t i = 0; i < n; i++) y[i] = POISON;   /* dot writes nothing */
        break;
    }
    default: bad = 1;
    }
    for (size_t k = 0; k < FENCE; k++)
        if (yb[k] != POISON || yb[FENCE + n + k] != POISON) return 1;
    return bad;
}

static void test_every_rung_at_awkward_sizes(void)
{
    pw_hw hw;
    pw_probe_static(&hw);
    int ran = 0;
    for (int i = 0; i < simd_nvariants; i++) {
        const simd_variant *v = &simd_variants[i];
        if (!simd_runs_here(v, &hw)) continue;
        ran++;
        for (size_t s = 0; s < NSIZES; s++)
            EXPECT(run_fenced(v, sizes[s]) == 0, "%s right and inside y at n = %zu", v->name, sizes[s]);
    }
    EXPECT(ran >= 14, "at least the scalar, branch and auto rungs ran (%d)", ran);
}

/* A deliberately broken rung: whole blocks of 8, no tail. */
static void square_no_tail(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++) y[i + k] = x[i + k] * x[i + k];
}

static void test_missing_tail_is_caught(void)
{
    simd_variant broken = { "square_no_tail", SIMD_SQUARE, PW_ISA_SCALAR, 8, 0, false, square_no_tail, NULL, NULL };
    FILE *quiet = tmpfile();
    pw_check_set_stream(quiet);
    EXPECT(run_fenced(&broken, 16) == 0, "right on a multiple of 8");
    EXPECT(run_fenced(&broken, 17) != 0, "caught at n = 17");
    EXPECT(run_fenced(&broken, 7) != 0, "caught at n = 7");
    pw_check_set_stream(NULL);
    fclose(quiet);
}

static void test_fallbacks(void)
{
    pw_hw hw;
    pw_probe_static(&hw);
    pw_hw scalar = hw;
    simd_cap_isa(&scalar, PW_ISA_SCALAR);
    for (int k = 0; k < SIMD_NKERNELS; k++) {
        const simd_variant *b = simd_best((simd_kernel)k, &scalar);
        EXPECT(b && b->isa == PW_ISA_SCALAR && b->lanes == 1 && !b->branchy,
               "%s falls back to scalar (%s)", simd_kernel_name((simd_kernel)k), b ? b->name : "none");
        b = simd_best((simd_kernel)k, &hw);
        EXPECT(b && b->isa == hw.isa, "%s: the best rung uses this CPU's ISA %s (%s)",
               simd_kernel_name((simd_kernel)k), pw_isa_name(hw.isa), b ? b->name : "none");
    }
    EXPECT(!simd_bf16_runs_here(&scalar), "no bf16 under a scalar cap");
    /* The rungs that run follow the build's ISA (the probe's answer), not
     * only the CPU's: an AVX2 build on an AVX-512 CPU runs no AVX-512 rung. */
    for (int i = 0; i < simd_nvariants; i++) {
        const simd_variant *v = &simd_variants[i];
        if (v->isa == PW_ISA_SCALAR || v->isa == PW_ISA_NEON || hw.isa == PW_ISA_NEON) continue;
        EXPECT(simd_runs_here(v, &hw) == (v->isa <= hw.isa), "%s %s in a %s build", v->name,
               v->isa <= hw.isa ? "runs" : "is skipped", pw_isa_name(hw.isa));
    }
    pw_isa isa;
    EXPECT(simd_parse_isa("avx2", &isa) && isa == PW_ISA_AVX2, "parses avx2");
    EXPECT(!simd_parse_isa("avx3", &isa), "refuses avx3");
#if SIMD_HAVE_X86
    if (hw.isa >= PW_ISA_AVX2) {
        pw_hw avx2 = hw;
        simd_cap_isa(&avx2, PW_ISA_AVX2);
        EXPECT(!simd_runs_here(simd_find("square_avx512"), &avx2), "AVX-512 skipped under an AVX2 cap");
        EXPECT(simd_runs_here(simd_find("square_sse"), &avx2), "SSE runs under an AVX2 cap");
        EXPECT(!strcmp(simd_best(SIMD_DOT, &avx2)->name, "dot_avx2_8acc"), "dot's best under AVX2 is dot_avx2_8acc");
    }
#endif
}

static void test_bf16(void)
{
    EXPECT(simd_float_to_bf16(1.0f) == 0x3f80, "1.0 is 0x3f80");
    EXPECT(simd_bf16_to_float(0x3f80) == 1.0f, "and back");
    /* 1 + 2^-8 is halfway between bf16 neighbours 1 and 1 + 2^-7: ties go to even (1). */
    EXPECT(simd_float_to_bf16(1.0f + 0x1p-8f) == 0x3f80, "a tie rounds to even");
    EXPECT(simd_float_to_bf16(1.0f + 0x1p-8f + 0x1p-20f) == 0x3f81, "above the tie rounds up");
    pw_hw hw;
    pw_probe_static(&hw);
    if (!simd_bf16_runs_here(&hw)) SKIP("no AVX-512 BF16 here");
    static uint16_t xh[1000], yh[1000];
    for (int n = 0; n <= 999; n += 37) {
        double want_s = 0;
        for (int i = 0; i < n; i++) {
            xh[i] = simd_float_to_bf16((float)(i % 5 - 2));
            yh[i] = simd_float_to_bf16((float)(i % 3 - 1));
            want_s += (double)(i % 5 - 2) * (i % 3 - 1);
        }
        EXPECT(simd_dot_bf16(xh, yh, (size_t)n) == (float)want_s, "bf16 dot exact on whole numbers, n = %d", n);
    }
}

int main(void)
{
    xb = pw_alloc_floats(MAXN + 2 * FENCE);
    yb = pw_alloc_floats(MAXN + 2 * FENCE);
    y0 = pw_alloc_floats(MAXN);
    want = pw_alloc_floats(MAXN);
    RUN(test_every_rung_at_awkward_sizes);
    RUN(test_missing_tail_is_caught);
    RUN(test_fallbacks);
    RUN(test_bf16);
    pw_free(xb); pw_free(yb); pw_free(y0); pw_free(want);
    return UNIT_RESULT();
}
