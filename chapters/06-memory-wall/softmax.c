/* chapters/06-memory-wall/softmax.c: fusion. The same arithmetic in fewer
 * trips to memory.
 *
 * Softmax over rows too large for the caches, three ways (kernels/softmax.h):
 *   3pass         max; sum of exp(x - max); normalise      16 bytes, 2 exps per element
 *   3pass_stored  max; y = exp(x - max) and sum; y /= sum  20 bytes, 1 exp
 *   online        max and sum in one pass (the sum rescaled when the max
 *                 grows); normalise                        12 bytes, 2 exps
 * Bytes count each pass's reads of x or y and writes of y, 4 per float. The
 * same rows are then run small enough to stay in L1/L2, where memory costs
 * nothing: what is left is the arithmetic (the exps), so the program can tell
 * which of the two the large rows waited for.
 *
 *   ./build/ch06/softmax                2 rows of 16M floats (64 MiB each)
 *   ./build/ch06/softmax -n 4M --rows 8
 *
 * What to expect: if the passes wait for memory, time follows the bytes:
 * online ~ 12/16 of 3pass's time, and 3pass_stored (more bytes, half the
 * exps) slowest. If they wait for the exps, online and 3pass take the same
 * time, and 3pass_stored wins. The program says which this run showed.
 */
#include "check.h"
#include "options.h"
#include "probe.h"
#include "results.h"
#include "softmax.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*softmax_fn)(const float *x, float *y, size_t n);
typedef struct {
    const char *name;
    softmax_fn fn;
    int passes;
    double bytes_per_elem;   /* compulsory: reads of x or y and writes of y, 4 bytes each */
    double exps_per_elem;
} sm_variant;

static const sm_variant variants[] = {
    { "3pass", softmax_3pass, 3, 16, 2 },               /* read x, read x, read x + write y */
    { "3pass_stored", softmax_3pass_stored, 3, 20, 1 }, /* read x, read x + write y, read y + write y */
    { "online", softmax_online, 2, 12, 2 },             /* read x, read x + write y */
};
#define NV (int)(sizeof variants / sizeof variants[0])

typedef struct { softmax_fn fn; const float *x; float *y; size_t n, rows; } sm_ctx;
static void run_rows(void *p)
{
    sm_ctx *c = p;
    for (size_t r = 0; r < c->rows; r++) c->fn(c->x + r * c->n, c->y + r * c->n, c->n);
}

/* The exp alone, against libm's in double, over [-100, 0]: the worst
 * relative error where the result is a normal float (x >= -87), and that it
 * is exactly 0 for -inf. Returns the error, or -1 if it is out of bounds. */
static double verify_exp(float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) x[i] = -100.0f * (float)i / (float)(n - 1);
    x[0] = -INFINITY;
    softmax_exp_array(x, y, n);
    double worst = 0;
    for (size_t i = 1; i < n; i++) {
        double want = exp((double)x[i]);
        double err = x[i] >= -87.0f ? fabs(y[i] - want) / want : fabs(y[i] - want);
        if (x[i] >= -87.0f && err > worst) worst = err;
        if (x[i] < -87.0f && err > 1e-37) { worst = -1; break; }
    }
    if (y[0] != 0.0f) worst = -1;
    if (worst < 0 || worst > 2.5e-7) {   /* 2 ulp of a float is 2^-22 = 2.4e-7 relative */
        fprintf(stderr, "softmax_expf: error %.3g against exp() in double (want <= 2.4e-7, 2 ulp)\n", worst);
        return -1;
    }
    return worst;
}

/* Rows with large values (exp(x) alone would overflow), masked (-inf)
 * entries, one element, odd lengths. Tolerance: each y is one exp (2 ulp)
 * over a sum of up to n terms added in 16 lanes and, in the online pass,
 * rescaled once per chunk: rtol 1e-5 covered 16M-float rows with room
 * (worst seen 1.1e-6); atol 1e-12 for the tiny tails. */
static int verify_all(size_t n_timed, float *x, float *y, double *ref)
{
    static const size_t lens[] = { 1, 7, 33, 255, 256, 257, 1000, 4097 };
    int bad = 0;
    char what[96];
    for (size_t s = 0; s <= sizeof lens / sizeof lens[0] && !bad; s++) {
        size_t n = s < sizeof lens / sizeof lens[0] ? lens[s] : n_timed;
        for (int kind = 0; kind < 3 && !bad; kind++) {
            /* kind 0: ordinary, 1: values near 100 (overflow without the max),
             * 2: every third entry masked, the first chunk entirely */
            pw_fill_random(x, n, 500 + s * 3 + (size_t)kind, kind == 1 ? 90.0f : -4.0f, kind == 1 ? 110.0f : 4.0f);
            if (kind == 2) {
                for (size_t i = 0; i < n; i += 3) x[i] = -INFINITY;
                for (size_t i = 0; i < n && i < SOFTMAX_CHUNK + 5; i++) x[i] = -INFINITY;
                x[n - 1] = 1.0f;      /* a live entry: an all -inf row has no softmax */
            }
            softmax_ref(x, ref, n);
            for (int v = 0; v < NV && !bad; v++) {
                variants[v].fn(x, y, n);
                /* PW_CH06_BREAK=<variant>: spoil its last element (tests/ch06_more.sh) */
                const char *brk = getenv("PW_CH06_BREAK");
                if (brk && !strcmp(brk, variants[v].name)) y[n - 1] += 0.5f;
                float *want = (float *)ref;             /* the reference rounded to float, in place */
                for (size_t i = 0; i < n; i++) want[i] = (float)ref[i];
                snprintf(what, sizeof what, "softmax_%s n=%zu (%s)", variants[v].name, n,
                         kind == 0 ? "values in [-4, 4)" : kind == 1 ? "values in [90, 110)" : "masked -inf entries");
                bad |= pw_check_floats(what, y, want, n, 1e-12, 1e-5);
                softmax_ref(x, ref, n);                 /* back to double for the next variant */
            }
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    pw_list sizes = PW_LIST(16777216);
    long long rows = 2, small = 4096;
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &sizes, "N", "floats per row (default 16M: 64 MiB, past the caches)", 1, PW_SIZE_MAX },
        { NULL, "--rows", PW_OPT_INT, &rows, "R", "rows (default 2)", 1, 1 << 20 },
        { NULL, "--small", PW_OPT_INT, &small, "N", "floats per row of the in-cache run (default 4096: 16 KiB)", 1, 1 << 20 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "softmax: three passes against the online (fused) one, bytes against time", opts, 3, &common);
    if (sizes.n != 1) {
        fprintf(stderr, "%s: -n takes one size here\n", common.prog);
        return PW_EXIT_USAGE;
    }
    if (common.tiny) { sizes = (pw_list)PW_LIST(20000); rows = 2; small = 1000; }
    size_t n = (size_t)sizes.v[0], nr = (size_t)rows;
    if (n > (size_t)PW_SIZE_MAX / nr) {
        fprintf(stderr, "%s: -n %zu x --rows %zu is too large: past this machine's memory\n", common.prog, n, nr);
        return PW_EXIT_USAGE;
    }
    size_t total = n * nr, cap = total > 8192 ? total : 8192;
    pw_require_memory(common.prog, "-n", (long long)cap, sizeof(float), 2);
    float *x = pw_alloc_floats(cap), *y = pw_alloc_floats(cap);
    double *ref = pw_alloc_doubles(n > 4097 ? n : 4097);

    double exp_err = verify_exp(x, y, 8192);
    if (exp_err < 0 || verify_all(n, x, y, ref)) {
        fprintf(stderr, "%s: a variant gave a wrong result; nothing was timed\n", common.prog);
        pw_free(x); pw_free(y); pw_free(ref);
        return PW_EXIT_WRONG;
    }
    pw_free(ref);
    printf("softmax_expf is within %.2g of exp() in double (x in [-87, 0]; 0 below, and for -inf)\n"
           "all variants match the double reference within 1e-5 (lengths 1, 7, 33, 255, 256, 257, 1000,\n"
           "4097 and %zu; ordinary values, values near 100, masked -inf entries)\n", exp_err, n);

    pw_hw hw;
    pw_probe_static(&hw);
    if (!common.tiny) {
        pw_probe_measure(&hw, true);
        printf("this machine: triad %.1f GB/s on one core (the probe)\n", hw.bw_gbs_1core);
        if (hw.from_cache) printf("  (this run's one probe, shared by every chapter of the run: see chapter 01's probe)\n");
    }
    pw_fill_random(x, total, 9, -8.0f, 8.0f);

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "param", "where the rows live: dram (rows past the caches) or cache (rows of --small floats)");
    pw_csv_meta(csv, "n", "floats per call (all rows); bytes: compulsory, 4 per float read or written per pass");
    pw_csv_meta(csv, "rows", "%zu rows of %zu floats", nr, n);
    pw_csv_meta(csv, "bw_gbs_1core", "%.2f", hw.bw_gbs_1core);
    pw_csv_meta(csv, "exp_max_rel_error", "%.3g", exp_err);

    /* Large rows, then small ones (same data, first `small` floats of each
     * of as many rows as make about the same work per call). Each set in
     * turns, so drift slows its variants alike. */
    pw_bench_config cfg = pw_bench_from_opts(&common);
    size_t sm = (size_t)small < n ? (size_t)small : n;
    sm_ctx big[NV], tiny[NV];
    pw_work_fn fns[NV];
    void *bctx[NV], *tctx[NV];
    for (int v = 0; v < NV; v++) {
        big[v] = (sm_ctx){ variants[v].fn, x, y, n, nr };
        tiny[v] = (sm_ctx){ variants[v].fn, x, y, sm, 1 };
        fns[v] = run_rows;
        bctx[v] = &big[v];
        tctx[v] = &tiny[v];
    }
    pw_bench_stats sb[NV], ss[NV];
    pw_bench_sweep(&cfg, fns, bctx, NV, sb);
    pw_bench_sweep(&cfg, fns, tctx, NV, ss);

    char rb[32], cb[32];
    printf("\n%zu rows of %zu floats (%s each) against one row of %zu (%s, in the caches)\n", nr, n,
           pw_fmt_bytes(4.0 * (double)n, rb, sizeof rb), sm, pw_fmt_bytes(4.0 * (double)sm, cb, sizeof cb));
    printf("%-13s %6s %11s %9s %11s %9s %10s %12s\n", "variant", "passes", "bytes/elem", "exps/elem",
           "large ms", "IQR ms", "GB/s", "ns/elem large");
    double ns_big[NV], ns_small[NV], gbs[NV];
    for (int v = 0; v < NV; v++) {
        const sm_variant *V = &variants[v];
        double bytes = V->bytes_per_elem * (double)total, sbytes = V->bytes_per_elem * (double)sm;
        ns_big[v] = sb[v].median * 1e9 / (double)total;
        ns_small[v] = ss[v].median * 1e9 / (double)sm;
        gbs[v] = pw_gbs(bytes, sb[v].median);
        printf("%-13s %6d %11.0f %9.0f %11.2f %9.2f %10.2f %12.3f\n", V->name, V->passes, V->bytes_per_elem,
               V->exps_per_elem, sb[v].median * 1e3, (sb[v].q3 - sb[v].q1) * 1e3, gbs[v], ns_big[v]);
        pw_csv_summary(csv, V->name, (long long)total, 1, "dram", &sb[v], 0, bytes);
        pw_csv_summary(csv, V->name, (long long)sm, 1, "cache", &ss[v], 0, sbytes);
    }
    printf("%-13s %6s %11s %9s %11s\n", "in cache:", "", "", "", "ns/elem");
    for (int v = 0; v < NV; v++) printf("%-13s %6s %11s %9s %11.3f\n", variants[v].name, "", "", "", ns_small[v]);

    /* What the large rows waited for, from this run's numbers. Two floors
     * per variant: its bytes at the probe's bandwidth (memory), and its
     * time with the row in the caches (the arithmetic: the exps). The
     * larger floor is the limit; the measured time sits at or above it,
     * and at the sum of the two when loads and exps did not overlap. */
    printf("\nWhat this run shows:\n");
    const int P3 = 0, PS = 1, ON = 2;
    bool have_bw = hw.bw_gbs_1core > 0;
    bool mem_limit[NV];
    for (int v = 0; v < NV; v++) {
        double mem = have_bw ? variants[v].bytes_per_elem / hw.bw_gbs_1core : 0;   /* ns per element */
        /* no probe (--tiny): the large rows' extra time over the small rows' is the memory's */
        mem_limit[v] = have_bw ? mem > ns_small[v] : ns_big[v] > 1.5 * ns_small[v];
        if (have_bw)
            printf("- %-12s memory floor %.3f ns/elem (%2.0f bytes at %.1f GB/s), exps floor %.3f (in the caches):\n"
                   "  %s-bound; measured %.3f ns, %s.\n", variants[v].name, mem, variants[v].bytes_per_elem,
                   hw.bw_gbs_1core, ns_small[v], mem_limit[v] ? "memory" : "exp", ns_big[v],
                   ns_big[v] > 0.9 * (mem + ns_small[v]) ? "about the sum of the two: loads and exps took turns"
                   : ns_big[v] < 1.15 * (mem > ns_small[v] ? mem : ns_small[v]) ? "at the larger floor: loads and exps overlapped"
                   : "between the larger floor and the sum");
        else
            printf("- %-12s %.3f ns/elem on large rows, %.3f in the caches: %s-bound (no probe in this run)\n",
                   variants[v].name, ns_big[v], ns_small[v], mem_limit[v] ? "memory" : "exp");
    }
    double r_on = ns_big[P3] / ns_big[ON], r_st = ns_big[P3] / ns_big[PS];
    /* The answers to the README's two predictions start with "answer:". A
     * row and its output that fit in the last-level cache never go to
     * memory between passes: then a saved pass cannot show as saved bytes. */
    long llc = hw.l3 > 0 ? hw.l3 : hw.l2;
    bool cached = llc > 0 && 8.0 * (double)n <= (double)llc;
    printf("answer: %sonline against 3pass: %.2fx on large rows (the bytes alone would give 16/12 = 1.33x where\n"
           "  memory is the limit); %.2fx in the caches, where the two do the same exps.\n",
           cached ? "not shown on this run (a row and its output fit in the last-level cache): " : "", r_on,
           ns_small[P3] / ns_small[ON]);
    if (mem_limit[P3] && r_on >= 1.1)
        printf("  Fusing the max into the sum's pass saved a trip over the row, and the time followed the bytes.\n");
    else if (mem_limit[P3])
        printf("  3pass waits for memory, yet one fewer pass gained under 1.1x. Likely: the online pass loads a chunk,\n"
               "  then runs its exps, and the loads did not overlap the exps enough to turn bytes into time.\n");
    else
        printf("  3pass waits for its exps, not memory: one fewer pass over memory cannot show here.\n");
    /* Within 5%: a tie on a machine whose runs wobble by that much. */
    printf("answer: %s3pass_stored (20 bytes, half the exps) against 3pass: %.2fx %s.\n",
           cached ? "not shown on this run (the rows fit in the caches): " : "", r_st >= 1 ? r_st : 1 / r_st,
           r_st >= 1.05 ? "faster: the exps it saves cost more than the bytes it adds"
           : r_st <= 1 / 1.05 ? "slower: the bytes it adds cost more than the exps it saves (recomputing is cheaper)"
           : (r_st >= 1 ? "faster, a tie: the exps it saves and the bytes it adds cost about the same"
                        : "slower, a tie: the exps it saves and the bytes it adds cost about the same"));
    pw_free(x);
    pw_free(y);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
