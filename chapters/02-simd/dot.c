/* chapters/02-simd/dot.c: a dot product needs several accumulators.
 *
 * s = sum x[i]*y[i] is a reduction: with one accumulator every FMA waits
 * for the previous one (its latency, about 4 cycles), however many lanes it
 * has. K independent accumulators (partial sums, added at the end) keep K
 * FMAs in flight. For each ISA and K = 1, 2, 4, 8 the dot product's GFLOP/s
 * is set beside the FMA loop of common/probe.h with the same K (the same
 * chains, no loads) and the one-core peak. Then bf16 (AVX-512 BF16, where
 * the CPU has it): twice the lanes per instruction and half the bytes, and
 * the precision that costs.
 *
 *   ./build/ch02/dot                  n = 4096 (32 KiB for x and y: L1)
 *   ./build/ch02/dot -n 4096,65536    also from L2
 *
 * What to expect: 1 accumulator runs at the latency-bound rate (about a
 * quarter of the peak); more accumulators raise it until the loads, not the
 * FMAs, are the limit: a dot product needs two loads per FMA, and a core
 * loads about two vectors per cycle, so it tops out near half the peak.
 */
#include "driver.h"
#include "results.h"
#include "timing.h"

typedef struct {
    simd_dot_fn fn;
    const float *x, *y;
    const uint16_t *xb, *yb;    /* the same data in bf16, for the bf16 rung */
    size_t n;
    float result;
} dot_ctx;

static void run_dot(void *p) { dot_ctx *c = p; c->result = c->fn(c->x, c->y, c->n); }
static void run_bf16(void *p) { dot_ctx *c = p; c->result = simd_dot_bf16(c->xb, c->yb, c->n); }

/* The bf16 rung against the double reference of its own (bf16) inputs, with
 * the tolerances of ch02_verify: the products of two bf16 are exact in fp32,
 * so only the order of the additions differs. */
static int verify_bf16(size_t n, ch02_bufs *b, uint16_t *xb, uint16_t *yb)
{
    char what[96];
    int bad = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0) {
            pw_fill_random(b->x, n, 42 + n, -1.0f, 1.0f);
            pw_fill_random(b->y, n, 7 + n, -1.0f, 1.0f);
        } else {
            ch02_fill_small_ints(b->x, n, 3 + n);   /* exact in bf16 too */
            ch02_fill_small_ints(b->y, n, 5 + n);
        }
        simd_to_bf16(b->x, xb, n);
        simd_to_bf16(b->y, yb, n);
        for (size_t i = 0; i < n; i++) {            /* the inputs as bf16 holds them */
            b->x[i] = simd_bf16_to_float(xb[i]);
            b->y[i] = simd_bf16_to_float(yb[i]);
        }
        snprintf(what, sizeof what, "dot_avx512_bf16 n=%zu%s", n, pass ? " (whole numbers)" : "");
        bad |= pw_check_scalar(what, simd_dot_bf16(xb, yb, n), simd_dot_ref(b->x, b->y, n),
                               pass ? 0 : CH02_DOT_RTOL * simd_dot_abs_ref(b->x, b->y, n), 0);
    }
    return bad;
}

/* What bf16 costs in precision: on real data, each rung's error against
 * the exact (double) dot product of the fp32 inputs, relative to sum|xy|. */
static void precision(const pw_hw *hw, ch02_bufs *b, uint16_t *xb, uint16_t *yb, size_t n, pw_csv *csv)
{
    pw_fill_random(b->x, n, 11, -1.0f, 1.0f);
    pw_fill_random(b->y, n, 12, -1.0f, 1.0f);
    double exact = simd_dot_ref(b->x, b->y, n), scale = simd_dot_abs_ref(b->x, b->y, n);
    const simd_variant *best = simd_best(SIMD_DOT, hw);
    float one = simd_dot_scalar(b->x, b->y, n), many = best->dot(b->x, b->y, n);
    printf("\nprecision, n = %zu random values in [-1, 1): error against the exact dot product\n"
           "(%.6g, computed in double), relative to it and to sum |x*y| = %.6g\n"
           "  %-22s %12s %14s\n", n, exact, scale, "variant", "vs exact", "vs sum|x*y|");
    printf("  %-22s %12.2e %14.2e\n", "dot_scalar (1 chain)", fabs(one - exact) / fabs(exact), fabs(one - exact) / scale);
    printf("  %-22s %12.2e %14.2e\n", best->name, fabs(many - exact) / fabs(exact), fabs(many - exact) / scale);
    pw_csv_meta(csv, "precision_n", "%zu", n);
    pw_csv_meta(csv, "rel_error_dot_scalar", "%.3e", fabs(one - exact) / scale);
    pw_csv_meta(csv, "rel_error_best_fp32", "%.3e", fabs(many - exact) / scale);
    if (!simd_bf16_runs_here(hw)) return;
    simd_to_bf16(b->x, xb, n);
    simd_to_bf16(b->y, yb, n);
    float h = simd_dot_bf16(xb, yb, n);
    /* bf16 keeps 8 significant bits: each input moves by up to 2^-9 of
     * itself when rounded, and those errors do not cancel in a product. */
    printf("  %-22s %12.2e %14.2e   (inputs rounded to 8 significant bits: up to 2^-9 = 2.0e-03 each)\n",
           "dot_avx512_bf16", fabs(h - exact) / fabs(exact), fabs(h - exact) / scale);
    pw_csv_meta(csv, "rel_error_bf16", "%.3e", fabs(h - exact) / scale);
}

/* What one size's table shows for the widest ISA's rungs, from its numbers. */
static void dot_findings(const char *isa, size_t n, double one, double best, int best_acc, double loop)
{
    printf("what this run shows (n = %zu, %s):\n", n, isa);
    if (best_acc > 1 && best >= 1.5 * one)
        printf("- 1 accumulator: %.1f GFLOP/s; %d accumulators: %.1f (%.1fx): independent partial sums keep\n"
               "  several FMAs in flight where one chain waits for each\n", one, best_acc, best, best / one);
    else
        printf("- more accumulators did not pay (%.1f against %.1f GFLOP/s): this run cannot show the chain (n = %zu, busy?)\n",
               best, one, n);
    if (loop > 0 && best < 0.7 * loop)
        printf("- the best reached %.0f%% of the best FMA loop (%.1f GFLOP/s, no loads): the FMAs are not what\n"
               "  stops it. Theory: a dot product needs two loads per FMA, and a core loads about two vectors\n"
               "  per cycle\n", 100 * best / loop, loop);
    else if (loop > 0)
        printf("- the best reached %.0f%% of the best FMA loop (%.1f GFLOP/s, no loads): the loads did not hold\n"
               "  it back in this run\n", 100 * best / loop, loop);
}

/* The answer to step 2's prediction, for the widest ISA (NULL: no vector
 * rung ran): its best rung's rate against the best FMA loop's, rounded as
 * the table rounds them. */
static void dot_answer(const char *isa, double one, double best, int best_acc, double loop)
{
    if (!isa) {
        printf("answer: not shown on this run: no vector rung runs on this build\n");
        return;
    }
    printf("answer: %s: the best rung, %d accumulators, made %.2f GFLOP/s (1 accumulator: %.2f); ", isa, best_acc, best,
           one);
    if (loop > 0)
        printf("%.0f%% of the best FMA loop (%.1f GFLOP/s, no loads)\n", 100 * best / loop, loop);
    else
        printf("against the FMA loop: not shown on this run (no FMA in %s)\n", isa);
}

int main(int argc, char **argv)
{
    pw_list sizes = PW_LIST(4096);
    bool no_probe = false;
    const char *isa = NULL;
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &sizes, "N[,N...]", "elements per array (default 4096: x and y fill the 32 KiB L1d)", 1, PW_SIZE_MAX },
        { NULL, "--isa", PW_OPT_STRING, &isa, "ISA", CH02_ISA_HELP, 0, 0 },
        { NULL, "--no-probe", PW_OPT_FLAG, &no_probe, NULL, "skip measuring the peak", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "dot product: one accumulator vs several, against the FMA peak", opts, 3, &common);
    if (common.tiny) { sizes = (pw_list)PW_LIST(1000); no_probe = true; }

    pw_hw hw;
    pw_probe_static(&hw);
    ch02_apply_isa(common.prog, isa, &hw);
    size_t nmax = (size_t)pw_list_max(&sizes);
    /* x, y, y0, want in fp32 and x, y in bf16 (half each): 5 float arrays */
    pw_require_memory(common.prog, "-n", (long long)nmax, sizeof(float), 5);
    size_t cap = nmax > CH02_AWKWARD_MAX ? nmax : CH02_AWKWARD_MAX;
    ch02_bufs b = ch02_bufs_alloc(cap);
    uint16_t *xb = pw_alloc_bytes(cap * sizeof *xb), *yb = pw_alloc_bytes(cap * sizeof *yb);

    int bad = ch02_verify_kernel(SIMD_DOT, &hw, &sizes, &b);
    if (simd_bf16_runs_here(&hw)) {
        for (size_t s = 0; s < CH02_NAWKWARD; s++) bad |= verify_bf16(ch02_awkward[s], &b, xb, yb);
        for (int s = 0; s < sizes.n; s++) bad |= verify_bf16((size_t)sizes.v[s], &b, xb, yb);
    }
    if (bad) {
        fprintf(stderr, "%s: a variant gave a wrong result; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the references (sizes 1, 7, 15, 17, 33, 1000003 and every timed size;\n"
           "whole numbers exactly, random reals within 1e-5 of sum|x*y|: the order of the adds differs)\n");
    ch02_print_skipped(SIMD_DOT, &hw);
    if (!simd_bf16_runs_here(&hw)) printf("skipped: dot_avx512_bf16    needs AVX-512 BF16\n");

    pw_hw peak = hw;
    if (!no_probe) {
        pw_probe_measure(&peak, true);
        printf("\nthis machine: FP32 peak %.1f GFLOP/s on one core (%s, %d accumulators)\n",
               peak.peak_gflops_1core, pw_isa_name(peak.isa), peak.peak_accumulators);
        if (peak.from_cache) printf("  (this run's one probe, shared by every chapter of the run: see chapter 01's probe)\n");
    }
    printf("\n");
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "isa", "%s", pw_isa_name(hw.isa));
    pw_csv_meta(csv, "peak_gflops_1core", "%.2f", peak.peak_gflops_1core);
    pw_csv_meta(csv, "param", "accumulators (independent partial sums)");
    pw_csv_meta(csv, "fma_rows", "fma_<isa>: the FMA loop of common/probe.h with as many accumulators, no loads");

    pw_bench_config cfg = pw_bench_from_opts(&common);
    double fma_seconds = common.tiny ? 0.002 : 0.03;
    for (int s = 0; s < sizes.n; s++) {
        size_t n = (size_t)sizes.v[s];
        double flops = 2.0 * (double)n, bytes = 8.0 * (double)n;   /* x[i]*y[i] + s; read x, y */
        pw_fill_random(b.x, n, 1, -1.0f, 1.0f);
        pw_fill_random(b.y, n, 2, -1.0f, 1.0f);
        printf("n = %zu (%s)\n%-18s %5s %4s %10s %6s %8s %8s %9s %6s\n", n, ch02_where(bytes, &hw),
               "variant", "lanes", "acc", "median", "IQR", "GFLOP/s", "FMA loop", "vs loop", "%peak");
        /* The widest ISA's rungs, for the findings: 1 accumulator, and the best. */
        double one_gf = 0, best_gf = 0, best_loop = 0;
        int best_acc = 0;
        const char *wide = NULL;
        for (int i = 0; i < simd_nvariants; i++) {
            const simd_variant *v = &simd_variants[i];
            if (v->kernel != SIMD_DOT || !simd_runs_here(v, &hw)) continue;
            dot_ctx ctx = { v->dot, b.x, b.y, NULL, NULL, n, 0 };
            pw_bench_stats st;
            pw_bench(&cfg, run_dot, &ctx, &st);
            pw_sink += ctx.result;
            double gf = pw_gflops(flops, st.median);
            /* The same chains without loads: what the FMAs alone allow. Only
             * for the ISAs with an FMA: scalar and SSE code here multiplies,
             * then adds, and its dot chain is the add alone, while the
             * probe's chain is both (twice as long): no fair yardstick. */
            bool has_fma = v->isa == PW_ISA_AVX2 || v->isa == PW_ISA_AVX512 || v->isa == PW_ISA_NEON;
            double loop = has_fma ? pw_fma_loop_gflops(v->isa, v->accumulators, fma_seconds) : 0;
            char lanes[8], acc[8];
            snprintf(acc, sizeof acc, "%d", v->accumulators);
            printf("%-18s %5s %4s %7.2f us %5.1f%% %8.2f ", v->name, ch02_lanes(v, lanes, sizeof lanes),
                   acc, st.median * 1e6, 100 * (st.q3 - st.q1) / st.median, gf);
            if (loop > 0) printf("%8.1f %8.0f%%", loop, 100 * gf / loop);
            else printf("%8s %9s", "-", "-");
            if (!no_probe) printf(" %5.1f%%", 100 * gf / peak.peak_gflops_1core);
            printf("\n");
            pw_csv_summary(csv, v->name, (long long)n, 1, acc, &st, flops, bytes);
            if (v->isa == hw.isa && v->lanes > 1) {
                wide = pw_isa_name(v->isa);
                if (v->accumulators == 1) one_gf = gf;
                if (gf > best_gf) { best_gf = gf; best_acc = v->accumulators; }
                if (loop > best_loop) best_loop = loop;   /* the FMAs' own ceiling */
            }
            if (loop > 0 && s == 0) {
                char variant[32];
                snprintf(variant, sizeof variant, "fma_%s", pw_isa_name(v->isa));
                pw_csv_value(csv, variant, (long long)n, 1, acc, 1.0, loop * 1e9, 0);
            }
        }
        if (simd_bf16_runs_here(&hw)) {
            simd_to_bf16(b.x, xb, n);
            simd_to_bf16(b.y, yb, n);
            dot_ctx ctx = { NULL, NULL, NULL, xb, yb, n, 0 };
            pw_bench_stats st;
            pw_bench(&cfg, run_bf16, &ctx, &st);
            pw_sink += ctx.result;
            double gf = pw_gflops(flops, st.median);
            printf("%-18s %5s %4s %7.2f us %5.1f%% %8.2f %8s %9s", "dot_avx512_bf16", "32", "4",
                   st.median * 1e6, 100 * (st.q3 - st.q1) / st.median, gf, "-", "-");
            if (!no_probe) printf(" %5.1f%%", 100 * gf / peak.peak_gflops_1core);
            printf("   (bf16: 4 bytes per element, not 8)\n");
            pw_csv_summary(csv, "dot_avx512_bf16", (long long)n, 1, "4", &st, flops, 4.0 * (double)n);
        }
        if (wide && one_gf > 0) dot_findings(wide, n, one_gf, best_gf, best_acc, best_loop);
        dot_answer(wide && one_gf > 0 ? wide : NULL, one_gf, best_gf, best_acc, best_loop);
        printf("\n");
    }
    printf("FMA loop: common/probe.h's loop with the same ISA and accumulators, from registers only.\n"
           "vs loop: the dot product's rate against it; %%peak: against the one-core FP32 peak.\n");
    precision(&hw, &b, xb, yb, common.tiny ? 4099 : CH02_AWKWARD_MAX, csv);

    pw_free(xb);
    pw_free(yb);
    ch02_bufs_free(&b);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
