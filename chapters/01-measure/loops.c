/* chapters/01-measure/loops.c: four loops, from the first cache to DRAM.
 *
 * For each kernel and each size: check the result against a double-precision
 * reference, then time it (median of repeats), then turn the time into rates
 * with the kernel's flop and byte counts, and place the rates against this
 * machine's measured peak FLOP/s and memory bandwidth.
 *
 *   ./build/ch01/loops                      sizes 1K..16M elements
 *   ./build/ch01/loops -n 1000,1000000 --csv out.csv
 *
 * What to expect: square and saxpy move 8 and 12 bytes per 1 and 2 flops,
 * so they can never get near the FLOP peak; while the arrays fit in L1/L2
 * they run at tens to hundreds of GB/s, and once they spill to DRAM they fall
 * to the memory bandwidth. sum and running_sum are dependent chains: about
 * one element per add latency at every size.
 */
#include "check.h"
#include "elementwise.h"
#include "options.h"
#include "probe.h"
#include "results.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const float *x;
    float *y;
    size_t n;
    float a;
    float result;          /* scalar result of the sum kernels */
} loop_ctx;

typedef struct {
    const char *name;
    void (*run)(void *ctx);
    double flops, bytes;   /* per element */
} kernel;

static void run_square(void *p) { loop_ctx *c = p; square_loop(c->x, c->y, c->n); }
static void run_saxpy(void *p) { loop_ctx *c = p; saxpy_loop(c->a, c->x, c->y, c->n); }
static void run_sum(void *p) { loop_ctx *c = p; c->result = sum_loop(c->x, c->n); }
static void run_running(void *p) { loop_ctx *c = p; running_sum(c->x, c->y, c->n); }

static const kernel kernels[] = {
    { "square",      run_square,  1, 8 },    /* y = x*x:    read x, write y */
    { "saxpy",       run_saxpy,   2, 12 },   /* y = a*x+y:  read x, read y, write y */
    { "sum",         run_sum,     1, 4 },    /* s += x:     read x */
    { "running_sum", run_running, 1, 8 },    /* y = y_prev + x: read x, write y */
};
#define NKERNELS (int)(sizeof kernels / sizeof kernels[0])

/* Check every kernel at size n against its reference. Sums use whole-number
 * data in [-8, 8]: every partial sum is then an exact float (far below 2^24),
 * so the answer is exact in any order and the tolerance is zero. square and
 * saxpy use random reals: square is one rounding (exact vs the double
 * reference rounded to float); saxpy rounds twice in float (a*x, then + y)
 * against once in double, so allow 2 units in the last place (rtol 2.4e-7)
 * plus 1e-7 absolute for results that cancel to near zero. */
static int verify(size_t n, float *x, float *y, float *want, float *y0)
{
    int bad = 0;
    char what[64];
    pw_fill_random(x, n, 42, -1.0f, 1.0f);
    pw_fill_random(y0, n, 7, -1.0f, 1.0f);

    square_loop(x, y, n);
    square_ref(x, want, n);
    snprintf(what, sizeof what, "square n=%zu", n);
    bad |= pw_check_floats(what, y, want, n, 0, 0);

    memcpy(y, y0, n * sizeof *y);
    saxpy_loop(0.75f, x, y, n);
    saxpy_ref(0.75f, x, y0, want, n);
    snprintf(what, sizeof what, "saxpy n=%zu", n);
    bad |= pw_check_floats(what, y, want, n, 1e-7, 2.4e-7);

    for (size_t i = 0; i < n; i++) x[i] = floorf(x[i] * 8.5f);   /* whole numbers -8..8 */
    snprintf(what, sizeof what, "sum n=%zu", n);
    bad |= pw_check_scalar(what, sum_loop(x, n), sum_ref(x, n), 0, 0);
    running_sum(x, y, n);
    running_sum_ref(x, want, n);
    snprintf(what, sizeof what, "running_sum n=%zu", n);
    bad |= pw_check_floats(what, y, want, n, 0, 0);
    return bad;
}

/* "L1", "L2", "L3" or "DRAM": the first level that holds `bytes` of traffic. */
static const char *where(double bytes, const pw_hw *hw)
{
    if (hw->l1d && bytes <= (double)hw->l1d) return "L1";
    if (hw->l2 && bytes <= (double)hw->l2) return "L2";
    if (hw->l3 && bytes <= (double)hw->l3) return "L3";
    return "DRAM";
}

/* What the table shows, from its own rates: where the streaming kernels
 * sit against peak and bandwidth once their data is past the last cache,
 * how much faster they ran from a cache, and whether the sums' rate
 * depends on the size. */
static void findings(const pw_list *sizes, const pw_hw *hw, bool no_probe,
                     double gf[][PW_MAX_LIST], double gb[][PW_MAX_LIST])
{
    int first = 0, last = 0;   /* smallest and largest size */
    for (int s = 1; s < sizes->n; s++) {
        if (sizes->v[s] < sizes->v[first]) first = s;
        if (sizes->v[s] > sizes->v[last]) last = s;
    }
    long long nl = sizes->v[last], nf = sizes->v[first];
    long llc = hw->l3 ? hw->l3 : hw->l2;
    printf("\nWhat this run shows:\n");
    for (int k = 0; k < 2; k++) {   /* square, saxpy: the streaming kernels */
        double traffic = kernels[k].bytes * (double)nl;
        const char *wf = where(kernels[k].bytes * (double)nf, hw), *wl = where(traffic, hw);
        if (sizes->n > 1 && gb[k][last] > 0) {
            if (strcmp(wf, wl))
                printf("- %s: %.1f GB/s at n = %lld (%s), %.1f GB/s at n = %lld (%s): %.1fx from the cache\n",
                       kernels[k].name, gb[k][first], nf, wf, gb[k][last], nl, wl, gb[k][first] / gb[k][last]);
            else
                printf("- %s: n = %lld and %lld both fit in %s: no cache step between them in this run\n",
                       kernels[k].name, nf, nl, wf);
        }
        if (no_probe) continue;
        if (llc == 0 || traffic < 2.0 * (double)llc) {
            printf("- %s: this run cannot show it against DRAM: n = %lld is not past the last cache (try -n %lld)\n",
                   kernels[k].name, nl, llc ? (long long)(2.0 * (double)llc / kernels[k].bytes) + 1 : 16777216LL);
            continue;
        }
        double pbw = 100 * gb[k][last] / hw->bw_gbs_1core, ppk = 100 * gf[k][last] / hw->peak_gflops_1core;
        if (pbw >= 60)
            printf("- %s from DRAM: %.0f%% of the triad's bandwidth and %.1f%% of the FLOP peak: memory-bound,\n"
                   "  as its %.3f flops per byte (machine balance %.1f) said it must be\n", kernels[k].name,
                   pbw, ppk, kernels[k].flops / kernels[k].bytes, hw->peak_gflops_1core / hw->bw_gbs_1core);
        else
            printf("- %s from DRAM reached only %.0f%% of the triad: this run cannot show it memory-bound (a busy machine?)\n",
                   kernels[k].name, pbw);
        if (pbw > 100)
            printf("  (over 100%%: the triad and %s also pay an uncounted read of each line they overwrite,\n"
                   "  %s)\n", k == 0 ? "square" : "not saxpy, which reads y anyway",
                   k == 0 ? "so some of this came from a cache" : "so saxpy's count is closer to the real traffic");
    }
    for (int k = 2; k < NKERNELS; k++) {   /* sum, running_sum: chains */
        double lo = gf[k][0], hi = gf[k][0];
        for (int s = 1; s < sizes->n; s++) {
            if (gf[k][s] < lo) lo = gf[k][s];
            if (gf[k][s] > hi) hi = gf[k][s];
        }
        if (sizes->n < 2) continue;
        if (hi <= 1.3 * lo)
            printf("- %s ran at %.2f-%.2f GFLOP/s at every size: bound by its chain of adds, not by memory\n",
                   kernels[k].name, lo, hi);
        else
            printf("- %s ranged from %.2f to %.2f GFLOP/s: this run cannot show a size-independent chain (a busy machine?)\n",
                   kernels[k].name, lo, hi);
    }

    /* The answer to step 4's prediction: square at the largest size, in %
     * of the peak and of the triad, rounded as the table rounds them. */
    if (no_probe) {
        printf("\nanswer: not shown on this run: no peak or bandwidth was measured (--no-probe or --tiny)\n");
        return;
    }
    double ppk = 100 * gf[0][last] / hw->peak_gflops_1core, pbw = 100 * gb[0][last] / hw->bw_gbs_1core;
    double traffic = kernels[0].bytes * (double)nl;
    if (llc && traffic >= 2.0 * (double)llc && pbw >= 60)
        printf("\nanswer: square at n = %lld (DRAM) reached %.1f%% of the FMA peak and %.0f%% of the triad's bandwidth:"
               " memory-bound\n", nl, ppk, pbw);
    else if (llc && traffic >= 2.0 * (double)llc)
        printf("\nanswer: not shown on this run: square at n = %lld reached %.1f%% of the FMA peak and only %.0f%% of"
               " the triad's bandwidth (a busy machine?)\n", nl, ppk, pbw);
    else
        printf("\nanswer: not shown on this run: square at n = %lld (%s) reached %.1f%% of the FMA peak and %.0f%% of"
               " the triad's bandwidth, but its data is not past the last cache (try -n %lld)\n",
               nl, where(traffic, hw), ppk, pbw, llc ? (long long)(2.0 * (double)llc / kernels[0].bytes) + 1 : 16777216LL);
}

int main(int argc, char **argv)
{
    pw_list sizes = PW_LIST(1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216);
    bool no_probe = false;
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &sizes, "N[,N...]", "elements per array (default 1K,4K,...,16M)", 1, PW_SIZE_MAX },
        { NULL, "--no-probe", PW_OPT_FLAG, &no_probe, NULL, "skip measuring the peak (no % of peak columns)", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "time four loops from L1 to DRAM, against this machine's peak",
                     opts, 2, &common);
    if (common.tiny) { sizes = (pw_list)PW_LIST(1000, 4099); no_probe = true; }

    /* x, y, and two reference buffers for the check: 4 arrays of the largest size. */
    size_t nmax = (size_t)pw_list_max(&sizes);
    pw_require_memory(common.prog, "-n", (long long)nmax, sizeof(float), 4);
    float *x = pw_alloc_floats(nmax), *y = pw_alloc_floats(nmax);
    float *want = pw_alloc_floats(nmax), *y0 = pw_alloc_floats(nmax);

    /* Correct before fast: awkward sizes first, then every size we will time. */
    static const size_t awkward[] = { 1, 3, 17, 1000, 4099, 65537 };
    int bad = 0;
    for (size_t i = 0; i < sizeof awkward / sizeof awkward[0]; i++)
        if (awkward[i] <= nmax) bad |= verify(awkward[i], x, y, want, y0);
    for (int s = 0; s < sizes.n; s++) bad |= verify((size_t)sizes.v[s], x, y, want, y0);
    if (bad) {
        fprintf(stderr, "%s: a kernel gave a wrong result; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the references (sizes 1, 3, 17, 1000, 4099, 65537 and every timed size)\n\n");

    pw_hw hw;
    if (no_probe) pw_probe_static(&hw);
    else pw_probe_measure(&hw, true);
    if (!no_probe) {
        printf("this machine: FP32 peak %.1f GFLOP/s on one core, memory bandwidth %.1f GB/s on one core (triad)\n",
               hw.peak_gflops_1core, hw.bw_gbs_1core);
        if (hw.from_cache) printf("  (this run's one probe, shared by every chapter of the run: see chapter 01's probe)\n");
    }
    char l1[16], l2[16], l3[16];
    printf("caches: L1d %s, L2 %s, L3 %s per instance\n\n", pw_fmt_bytes((double)hw.l1d, l1, sizeof l1),
           pw_fmt_bytes((double)hw.l2, l2, sizeof l2), pw_fmt_bytes((double)hw.l3, l3, sizeof l3));

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "l1d_bytes", "%ld", hw.l1d);
    pw_csv_meta(csv, "l2_bytes", "%ld", hw.l2);
    pw_csv_meta(csv, "l3_bytes", "%ld", hw.l3);
    pw_csv_meta(csv, "peak_gflops_1core", "%.2f", hw.peak_gflops_1core);
    pw_csv_meta(csv, "bw_gbs_1core", "%.2f", hw.bw_gbs_1core);

    pw_bench_config cfg = pw_bench_from_opts(&common);
    static double rate_gf[NKERNELS][PW_MAX_LIST], rate_gb[NKERNELS][PW_MAX_LIST];
    printf("%-12s %10s %10s %11s %7s %9s %8s %7s %7s\n", "kernel", "n", "traffic", "median", "IQR",
           "GFLOP/s", "GB/s", "%peak", "%bw");
    for (int k = 0; k < NKERNELS; k++) {
        for (int s = 0; s < sizes.n; s++) {
            size_t n = (size_t)sizes.v[s];
            pw_fill_random(x, n, 42, -1.0f, 1.0f);
            pw_fill_random(y, n, 7, -1.0f, 1.0f);
            loop_ctx ctx = { x, y, n, 0.75f, 0 };
            pw_bench_stats st;
            pw_bench(&cfg, kernels[k].run, &ctx, &st);
            pw_sink += ctx.result;
            double flops = kernels[k].flops * (double)n, bytes = kernels[k].bytes * (double)n;
            double gf = pw_gflops(flops, st.median), gb = pw_gbs(bytes, st.median);
            rate_gf[k][s] = gf;
            rate_gb[k][s] = gb;
            char traffic[16];
            printf("%-12s %10zu %10s %9.3f us %6.1f%% %9.2f %8.1f", kernels[k].name, n,
                   pw_fmt_bytes(bytes, traffic, sizeof traffic), st.median * 1e6,
                   100 * (st.q3 - st.q1) / st.median, gf, gb);
            if (!no_probe) printf(" %6.1f%% %6.0f%%", 100 * gf / hw.peak_gflops_1core, 100 * gb / hw.bw_gbs_1core);
            /* Above the measured peak means the counts or the timer are wrong. */
            if (!no_probe && gf > 1.05 * hw.peak_gflops_1core) printf("  <- above peak: suspicious");
            printf("\n");
            pw_csv_summary(csv, kernels[k].name, (long long)n, 1, "", &st, flops, bytes);
        }
    }
    printf("\n%%peak: GFLOP/s against the one-core FMA peak; %%bw: GB/s against the one-core DRAM triad.\n");
    findings(&sizes, &hw, no_probe, rate_gf, rate_gb);

    pw_free(x); pw_free(y); pw_free(want); pw_free(y0);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
