/* chapters/02-simd/driver.h: what the three programs of chapter 02 share:
 * the --isa cap, the "skipped" lines, and where a working set lives. */
#ifndef PW_CH02_DRIVER_H
#define PW_CH02_DRIVER_H

#include "options.h"
#include "probe.h"
#include "simd.h"
#include "util.h"

#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The sizes every variant is checked on before anything is timed: none a
 * multiple of 4, 8 or 16, so a vector loop that forgets its tail (the last
 * n mod lanes elements) gives a wrong answer here. */
static const size_t ch02_awkward[] = { 1, 7, 15, 17, 33, 1000003 };
#define CH02_NAWKWARD (sizeof ch02_awkward / sizeof ch02_awkward[0])
#define CH02_AWKWARD_MAX 1000003

/* Buffers for the checks, each of at least `cap` floats. */
typedef struct { float *x, *y, *y0, *want; size_t cap; } ch02_bufs;

static inline ch02_bufs ch02_bufs_alloc(size_t cap)
{
    ch02_bufs b = { pw_alloc_floats(cap), pw_alloc_floats(cap), pw_alloc_floats(cap),
                    pw_alloc_floats(cap), cap };
    return b;
}

static inline void ch02_bufs_free(ch02_bufs *b)
{
    pw_free(b->x); pw_free(b->y); pw_free(b->y0); pw_free(b->want);
}

/* Whole numbers from {-2, -1, 1, 2}: never 0, so a skipped or doubled
 * element always changes a sum; every product is one of +-1, +-2, +-4 and
 * every partial sum of up to 1000003 of them stays below 4.1e6 < 2^24, so
 * it is an exact float: any order of summation gives the exact answer. */
static inline void ch02_fill_small_ints(float *x, size_t n, uint64_t seed)
{
    static const float v[4] = { -2, -1, 1, 2 };
    pw_fill_random(x, n, seed, 0.0f, 4.0f);
    for (size_t i = 0; i < n; i++) x[i] = v[(int)x[i] & 3];
}

/* A dot product's tolerance on real data, as a fraction of sum |x[i]*y[i]|.
 * Each order of summation (1 chain, K accumulators of L lanes, the final
 * adds across lanes) rounds differently; every rounding errs by at most
 * 2^-24 of the partial sum it makes, and partial sums are at most sum|xy|.
 * The provable bound, (n-1) * 2^-24 * sum|xy|, is useless for n = 10^6;
 * rounding errors of random data cancel instead: the errors we measured
 * (chapters/02-simd/dot.c prints them) are about 1e-8 of sum|xy| for one
 * chain and 1e-9 for 8 accumulators at n = 1000003; 1e-5 leaves a factor
 * of 1000 for other machines and orders. A missed element of 10^6 moves the sum by far
 * less than that: the whole-number check above is what catches it. */
#define CH02_DOT_RTOL 1e-5

/* Check one variant at size n against its reference: 0 right, 1 wrong
 * (reported on stderr by common/check.h). */
static inline int ch02_verify(const simd_variant *v, size_t n, ch02_bufs *b)
{
    char what[96];
    float *x = b->x, *y = b->y, *want = b->want;
    snprintf(what, sizeof what, "%s n=%zu", v->name, n);
    pw_fill_random(x, n, 42 + n, -1.0f, 1.0f);
    switch (v->kernel) {
    case SIMD_SQUARE:
    case SIMD_PIECEWISE:
        /* Exact: each element is one float multiply (x*x or 0.5*x), rounded
         * once, as the double reference rounded to float. */
        v->map(x, y, n);
        if (v->kernel == SIMD_SQUARE) simd_square_ref(x, want, n);
        else simd_piecewise_ref(x, want, n);
        return pw_check_floats(what, y, want, n, 0, 0);
    case SIMD_SAXPY:
        /* a*x + y: one rounding with FMA, two without, against one rounding
         * of the double result: 2 units in the last place (2.4e-7), plus
         * 1e-7 absolute where a*x and y cancel to near zero. */
        pw_fill_random(b->y0, n, 7 + n, -1.0f, 1.0f);
        memcpy(y, b->y0, n * sizeof *y);
        v->axpy(0.75f, x, y, n);
        simd_saxpy_ref(0.75f, x, b->y0, want, n);
        return pw_check_floats(what, y, want, n, 1e-7, 2.4e-7);
    case SIMD_DOT: {
        pw_fill_random(y, n, 7 + n, -1.0f, 1.0f);
        int bad = pw_check_scalar(what, v->dot(x, y, n), simd_dot_ref(x, y, n),
                                  CH02_DOT_RTOL * simd_dot_abs_ref(x, y, n), 0);
        ch02_fill_small_ints(x, n, 3 + n);
        ch02_fill_small_ints(y, n, 5 + n);
        snprintf(what, sizeof what, "%s n=%zu (whole numbers: exact in any order)", v->name, n);
        return bad | pw_check_scalar(what, v->dot(x, y, n), simd_dot_ref(x, y, n), 0, 0);
    }
    default:
        return 1;
    }
}

/* Check every variant of kernel k that runs on hw at the awkward sizes and
 * at each size in `sizes`; returns 1 if any was wrong. */
static inline int ch02_verify_kernel(simd_kernel k, const pw_hw *hw, const pw_list *sizes, ch02_bufs *b)
{
    int bad = 0;
    for (int i = 0; i < simd_nvariants; i++) {
        const simd_variant *v = &simd_variants[i];
        if (v->kernel != k || !simd_runs_here(v, hw)) continue;
        for (size_t s = 0; s < CH02_NAWKWARD; s++) bad |= ch02_verify(v, ch02_awkward[s], b);
        for (int s = 0; s < sizes->n; s++) bad |= ch02_verify(v, (size_t)sizes->v[s], b);
    }
    return bad;
}

/* The --isa option's text, for the table of options. */
#define CH02_ISA_HELP "run as if the CPU had at most this ISA: scalar, sse, avx2, avx512, neon"

/* Apply --isa (NULL: none) to hw; bad text is a usage error: one line, exit 2. */
static inline void ch02_apply_isa(const char *prog, const char *isa, pw_hw *hw)
{
    if (!isa) return;
    pw_isa cap;
    if (!simd_parse_isa(isa, &cap)) {
        fprintf(stderr, "%s: --isa '%s': not an ISA (scalar, sse, avx2, avx512 or neon)\n", prog, isa);
        exit(PW_EXIT_USAGE);
    }
    simd_cap_isa(hw, cap);
}

/* One line per variant of kernel k this CPU cannot run: skipped, not failed. */
static inline void ch02_print_skipped(simd_kernel k, const pw_hw *hw)
{
    for (int i = 0; i < simd_nvariants; i++) {
        const simd_variant *v = &simd_variants[i];
        if (v->kernel == k && !simd_runs_here(v, hw))
            printf("skipped: %-18s needs %s, and this run has %s\n", v->name, pw_isa_name(v->isa),
                   pw_isa_name(hw->isa));
    }
}

/* "L1", "L2", "L3" or "DRAM": the first cache level that holds `bytes`. */
static inline const char *ch02_where(double bytes, const pw_hw *hw)
{
    if (hw->l1d && bytes <= (double)hw->l1d) return "L1";
    if (hw->l2 && bytes <= (double)hw->l2) return "L2";
    if (hw->l3 && bytes <= (double)hw->l3) return "L3";
    return "DRAM";
}

/* The lanes of a variant as text: "16", or "auto" where the compiler chose. */
static inline const char *ch02_lanes(const simd_variant *v, char *buf, size_t len)
{
    if (v->lanes) snprintf(buf, len, "%d", v->lanes);
    else snprintf(buf, len, "auto");
    return buf;
}

#endif
