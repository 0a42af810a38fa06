/* chapters/02-simd/lanes.c: more lanes, more speed, until memory says no.
 *
 * square, saxpy and dot, each as a ladder: scalar (vectoriser off), auto
 * (the compiler's vectoriser), then hand-written intrinsics for 4 (SSE),
 * 8 (AVX2) and 16 (AVX-512) floats per instruction, picked at run time by
 * what this CPU has (a rung it lacks is reported as skipped). Every rung is
 * checked against a double-precision reference at sizes 1, 7, 15, 17, 33,
 * 1000003 and every timed size, then timed at sizes that live in L1, in L2
 * and in DRAM.
 *
 *   ./build/ch02/lanes                      n = 2K (L1), 64K (L2), 16M (DRAM)
 *   ./build/ch02/lanes -n 4K,64M --isa avx2 as if the CPU stopped at AVX2
 *
 * What to expect: in L1 the speedup over scalar grows with the lanes (not
 * all the way: loads, stores and loop overhead are work too); in DRAM every
 * rung runs at the memory bandwidth and the lanes buy almost nothing. The
 * dot rungs use 8 accumulators each (chapters/02-simd/dot.c shows why).
 */
#include "driver.h"

#include <string.h>
#include "results.h"
#include "timing.h"

typedef struct {
    const simd_variant *v;
    const float *x;
    float *y;
    size_t n;
    float result;      /* dot's answer, kept so the call is not optimised away */
} lane_ctx;

static void run_variant(void *p)
{
    lane_ctx *c = p;
    switch (c->v->kernel) {
    case SIMD_SAXPY: c->v->axpy(0.75f, c->x, c->y, c->n); break;
    case SIMD_DOT: c->result = c->v->dot(c->x, c->y, c->n); break;
    default: c->v->map(c->x, c->y, c->n); break;
    }
}

/* Per element, as counted in kernels/simd.h: square 1 flop, 8 bytes; saxpy
 * 2 flops, 12 bytes; dot 2 flops, 8 bytes. */
static void counts(simd_kernel k, double n, double *flops, double *bytes)
{
    *flops = (k == SIMD_SQUARE ? 1 : 2) * n;
    *bytes = (k == SIMD_SAXPY ? 12 : 8) * n;
}

/* The rungs this table times: for dot only the 8-accumulator ones. */
static bool timed_here(const simd_variant *v)
{
    return !(v->kernel == SIMD_DOT && v->lanes > 1 && v->accumulators != 8);
}

/* What the table shows, per kernel, from its own speedups: the widest rung
 * at the smallest and the largest size (where the data lives), and the
 * auto rung against it. */
static void findings(const simd_kernel *kernels, const pw_list *sizes, const pw_hw *hw,
                     double best_sp[][PW_MAX_LIST], double auto_sp[][PW_MAX_LIST])
{
    int first = 0, last = 0;
    for (int s = 1; s < sizes->n; s++) {
        if (sizes->v[s] < sizes->v[first]) first = s;
        if (sizes->v[s] > sizes->v[last]) last = s;
    }
    const char *wf = ch02_where(8.0 * (double)sizes->v[first], hw);
    const char *wl = ch02_where(8.0 * (double)sizes->v[last], hw);
    printf("\nWhat this run shows:\n");
    for (int k = 0; k < 3; k++) {
        const simd_variant *b = simd_best(kernels[k], hw);
        if (b->lanes <= 1) {
            printf("- %s: no vector rung runs here (%s): nothing to compare\n", simd_kernel_name(kernels[k]),
                   pw_isa_name(hw->isa));
            continue;
        }
        printf("- %s: %s (%d lanes) ran %.1fx scalar at n = %lld (%s)", simd_kernel_name(kernels[k]), b->name,
               b->lanes, best_sp[k][first], sizes->v[first], wf);
        if (last != first) printf(", %.1fx at n = %lld (%s)", best_sp[k][last], sizes->v[last], wl);
        printf(".\n");
        if (last != first && !strcmp(wl, "DRAM") && strcmp(wf, "DRAM")) {
            if (best_sp[k][last] < 0.6 * best_sp[k][first])
                printf("  From DRAM the lanes help far less: memory, not arithmetic, sets the rate there.\n");
            else
                printf("  From DRAM it kept most of its speedup: this run cannot show the memory wall (compare the GB/s).\n");
        } else if (last != first && !strcmp(wl, wf)) {
            printf("  Both sizes live in %s: this run cannot show the step to DRAM.\n", wf);
        }
        if (auto_sp[k][first] > 0)
            printf("  %s_auto%s ran %.1fx scalar at n = %lld, %.0f%% of %s's speed%s.\n",
                   simd_kernel_name(kernels[k]), kernels[k] == SIMD_DOT ? "16" : "", auto_sp[k][first],
                   sizes->v[first], 100 * auto_sp[k][first] / best_sp[k][first], b->name,
                   auto_sp[k][first] < 0.5 * best_sp[k][first] ? ": the compiler left speed behind" : "");
    }

    /* The answer to step 1's prediction: square's widest rung against
     * scalar, in the smallest working set and from DRAM, rounded as the
     * table's speedup column. */
    const simd_variant *sq = simd_best(SIMD_SQUARE, hw);
    if (sq->lanes <= 1) {
        printf("\nanswer: not shown on this run: no vector rung runs on this build (%s)\n", pw_isa_name(hw->isa));
        return;
    }
    printf("\nanswer: %s (%d lanes) ran %.2fx scalar at n = %lld (%s)", sq->name, sq->lanes, best_sp[0][first],
           sizes->v[first], wf);
    if (last != first && !strcmp(wl, "DRAM"))
        printf(" and %.2fx at n = %lld (DRAM)\n", best_sp[0][last], sizes->v[last]);
    else
        printf("; from DRAM: not shown on this run (the largest size, n = %lld, is in %s)\n", sizes->v[last], wl);
}

int main(int argc, char **argv)
{
    pw_list sizes = PW_LIST(2048, 65536, 16777216);
    bool no_probe = false;
    const char *isa = NULL;
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &sizes, "N[,N...]", "elements per array (default 2K,64K,16M: L1, L2, DRAM)", 1, PW_SIZE_MAX },
        { NULL, "--isa", PW_OPT_STRING, &isa, "ISA", CH02_ISA_HELP, 0, 0 },
        { NULL, "--no-probe", PW_OPT_FLAG, &no_probe, NULL, "skip measuring the peak (no %peak, %bw columns)", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "speedup of SIMD lanes over scalar, from L1 to DRAM", opts, 3, &common);
    if (common.tiny) { sizes = (pw_list)PW_LIST(1000, 4099); no_probe = true; }

    pw_hw hw;
    pw_probe_static(&hw);
    ch02_apply_isa(common.prog, isa, &hw);

    /* x, y, and the checks' y0 and want: 4 arrays of the largest size. */
    size_t nmax = (size_t)pw_list_max(&sizes);
    pw_require_memory(common.prog, "-n", (long long)nmax, sizeof(float), 4);
    ch02_bufs b = ch02_bufs_alloc(nmax > CH02_AWKWARD_MAX ? nmax : CH02_AWKWARD_MAX);

    static const simd_kernel kernels[] = { SIMD_SQUARE, SIMD_SAXPY, SIMD_DOT };
    int bad = 0;
    for (int k = 0; k < 3; k++) bad |= ch02_verify_kernel(kernels[k], &hw, &sizes, &b);
    if (bad) {
        fprintf(stderr, "%s: a variant gave a wrong result; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the references (sizes 1, 7, 15, 17, 33, 1000003 and every timed size)\n");
    for (int k = 0; k < 3; k++) ch02_print_skipped(kernels[k], &hw);

    pw_hw peak = hw;
    if (!no_probe) {
        pw_probe_measure(&peak, true);
        printf("\nthis machine: FP32 peak %.1f GFLOP/s on one core, DRAM bandwidth %.1f GB/s on one core (triad)\n",
               peak.peak_gflops_1core, peak.bw_gbs_1core);
        if (peak.from_cache) printf("  (this run's one probe, shared by every chapter of the run: see chapter 01's probe)\n");
    }
    char l1[16], l2[16], l3[16];
    printf("%sISA in this run: %s (%d lanes); caches: L1d %s, L2 %s, L3 %s\n\n", no_probe ? "\n" : "",
           pw_isa_name(hw.isa), hw.lanes, pw_fmt_bytes((double)hw.l1d, l1, sizeof l1),
           pw_fmt_bytes((double)hw.l2, l2, sizeof l2), pw_fmt_bytes((double)hw.l3, l3, sizeof l3));

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "isa", "%s", pw_isa_name(hw.isa));
    pw_csv_meta(csv, "l1d_bytes", "%ld", hw.l1d);
    pw_csv_meta(csv, "l2_bytes", "%ld", hw.l2);
    pw_csv_meta(csv, "l3_bytes", "%ld", hw.l3);
    pw_csv_meta(csv, "peak_gflops_1core", "%.2f", peak.peak_gflops_1core);
    pw_csv_meta(csv, "bw_gbs_1core", "%.2f", peak.bw_gbs_1core);
    pw_csv_meta(csv, "param", "floats per instruction (lanes); auto = the compiler's choice");

    pw_bench_config cfg = pw_bench_from_opts(&common);
    /* Per kernel and size: the speedup of the widest hand-written rung and
     * of the auto rung, for the findings after the table. */
    static double best_sp[3][PW_MAX_LIST], auto_sp[3][PW_MAX_LIST];
    printf("%-17s %5s %9s %5s %11s %6s %8s %7s %8s %6s %5s\n", "variant", "lanes", "n", "where",
           "median", "IQR", "GFLOP/s", "GB/s", "speedup", "%peak", "%bw");
    for (int k = 0; k < 3; k++) {
        for (int s = 0; s < sizes.n; s++) {
            size_t n = (size_t)sizes.v[s];
            double flops, bytes, scalar_median = 0;
            counts(kernels[k], (double)n, &flops, &bytes);
            /* The arrays' footprint: x and y, 8 bytes per element for all three. */
            const char *where = ch02_where(8.0 * (double)n, &hw);
            for (int i = 0; i < simd_nvariants; i++) {
                const simd_variant *v = &simd_variants[i];
                if (v->kernel != kernels[k] || !timed_here(v) || !simd_runs_here(v, &hw)) continue;
                pw_fill_random(b.x, n, 1, -1.0f, 1.0f);
                pw_fill_random(b.y, n, 2, -1.0f, 1.0f);
                lane_ctx ctx = { v, b.x, b.y, n, 0 };
                pw_bench_stats st;
                pw_bench(&cfg, run_variant, &ctx, &st);
                pw_sink += ctx.result;
                if (!scalar_median) scalar_median = st.median;   /* the table starts with scalar */
                double gf = pw_gflops(flops, st.median), gb = pw_gbs(bytes, st.median);
                char lanes[8];
                printf("%-17s %5s %9zu %5s %8.2f us %5.1f%% %8.2f %7.1f %7.2fx", v->name,
                       ch02_lanes(v, lanes, sizeof lanes), n, where, st.median * 1e6,
                       100 * (st.q3 - st.q1) / st.median, gf, gb, scalar_median / st.median);
                if (!no_probe) printf(" %5.1f%% %4.0f%%", 100 * gf / peak.peak_gflops_1core,
                                      100 * gb / peak.bw_gbs_1core);
                if (!no_probe && gf > 1.05 * peak.peak_gflops_1core) printf("  <- above peak: suspicious");
                printf("\n");
                pw_csv_summary(csv, v->name, (long long)n, 1, lanes, &st, flops, bytes);
                if (v == simd_best(kernels[k], &hw)) best_sp[k][s] = scalar_median / st.median;
                if (v->lanes == 0 && v->accumulators != 1) auto_sp[k][s] = scalar_median / st.median;
            }
        }
        printf("\n");
    }
    printf("speedup: the scalar rung's median over this rung's, same kernel and size.\n"
           "%%peak: against the one-core FMA peak; %%bw: against the one-core DRAM triad\n"
           "(over 100%%: the data came from a cache).\n");
    findings(kernels, &sizes, &hw, best_sp, auto_sp);
    ch02_bufs_free(&b);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
