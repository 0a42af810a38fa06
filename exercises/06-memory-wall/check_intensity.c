/* exercises/06-memory-wall/check_intensity.c: the checker of exercise 6.1.
 *
 * Built with your exercises/06-memory-wall/intensity.c by `make ex-6.1`, or
 * with the solution by `make solution-6.1`. Three parts:
 *   1. your counts on many element sizes, radii and GEMM shapes (from a
 *      fixed-seed generator, so no table of answers can pass), exactly;
 *      the usual miscounts are named;
 *   2. roofline_bound() on machines where the memory roof is lower and where
 *      the compute roof is, exactly (1e-12 relative);
 *   3. the lesson: this machine's one-core peak and triad bandwidth from the
 *      probe (the bandwidth measured again just before each kernel), your
 *      bound for triad, dot and two stencils (r = 1, 2) from them, and each
 *      kernel measured here (float, one thread, arrays past the caches).
 *      A kernel can come near its bound but not far past it: measured/bound
 *      must lie in [0.3, 1.6]. Why 1.6 and not 1.0: the bandwidth roof is
 *      triad's, which is credited 24 bytes of floats for 32 moved (the
 *      write-allocate read of a[]); a read-only kernel such as dot moves
 *      only what it is credited, and may pass the roof by a third.
 *      Not judged under a sanitizer (it slows the loops, not the probe's).
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include "intensity.h"
#include "probe.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void fail(const char *what)
{
    failures++;
    printf("FAIL: %s\n", what);
}

static bool same(double got, double want) { return fabs(got - want) <= 1e-12 * fabs(want) + 1e-300; }

static uint64_t rng = 0x6a09e667f3bcc909ull;
static long pick(long lo, long hi)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return lo + (long)(rng % (uint64_t)(hi - lo + 1));
}

/* ---- 1. the counts ---------------------------------------------------------- */

static bool check_one(const char *kernel, counts got, double flops, double bytes, const char *hint_flops,
                      const char *hint_bytes)
{
    if (same(got.flops, flops) && same(got.bytes, bytes)) return true;
    printf("wrong\n  %s: you said %g flops and %g bytes, want %g and %g\n", kernel, got.flops, got.bytes, flops, bytes);
    char msg[400];
    snprintf(msg, sizeof msg, "%s: %s", kernel, !same(got.flops, flops) ? hint_flops : hint_bytes);
    fail(msg);
    return false;
}

static void check_counts(void)
{
    static const int sizes[] = { 2, 4, 8 };
    printf("  count_triad(), count_dot(), count_stencil() for 2-, 4- and 8-byte elements, radius 0..9 ... ");
    for (int s = 0; s < 3; s++) {
        int e = sizes[s];
        counts t = count_triad(e);
        if (!check_one("triad", t, 2, 3.0 * e, "a multiply (s * c[i]) and an add: 2 flops",
                       t.bytes == 4.0 * e ? "you counted the write-allocate read of a[]: count as STREAM, reads b and c, "
                                            "writes a: 3 elements"
                                          : "reads b[i] and c[i], writes a[i]: 3 elements of elem_bytes"))
            return;
        counts d = count_dot(e);
        if (!check_one("dot", d, 2, 2.0 * e, "x[i] * y[i] and the add into sum: 2 flops",
                       d.bytes > 2.0 * e ? "sum stays in a register: only x[i] and y[i] cross from memory"
                                         : "reads x[i] and y[i]: 2 elements of elem_bytes"))
            return;
        for (int r = 0; r <= 9; r++) {
            counts c = count_stencil(r, e);
            char hf[160];
            snprintf(hf, sizeof hf, "2r + 1 = %d elements take %d adds, then one multiply: %d flops", 2 * r + 1, 2 * r,
                     2 * r + 1);
            if (!check_one("stencil", c, 2.0 * r + 1, 2.0 * e, hf,
                           c.bytes > 2.0 * e ? "each x[j] is read by 2r + 1 outputs in a row, but after the first "
                                               "read its line is in the cache: memory sees x once, y once"
                                             : "x read once and y written once: 2 elements of elem_bytes"))
                return;
        }
    }
    printf("ok\n  count_gemm() on 40 shapes from 1 x 1 x 1 to 8192 x 8192 x 8192 ... ");
    for (int i = 0; i < 40; i++) {
        long m = i == 0 ? 1 : i == 1 ? 8192 : pick(1, 5000), n = i == 0 ? 1 : i == 1 ? 8192 : pick(1, 5000),
             k = i == 0 ? 1 : i == 1 ? 8192 : pick(1, 5000);
        int e = sizes[i % 3];
        double M = (double)m, N = (double)n, K = (double)k;
        counts g = count_gemm(m, n, k, e);
        char hb[200];
        snprintf(hb, sizeof hb, "%s (m = %ld, n = %ld, k = %ld)",
                 same(g.bytes, e * (M * K + K * N + M * N)) ? "C is read (the + C) and written: count it twice"
                                                            : "A (m x k) and B (k x n) once, C (m x n) read and written",
                 m, n, k);
        char hf[200];
        snprintf(hf, sizeof hf, "%s (m = %ld, n = %ld, k = %ld)",
                 same(g.flops, M * N * K) ? "a multiply AND an add per (i, j, p): 2mnk"
                 : g.flops < 0 || g.flops < M * N * K / 2 ? "m n k overflowed: compute it in double"
                                                          : "2mnk: a multiply and an add per (i, j, p)",
                 m, n, k);
        if (!check_one("gemm", g, 2 * M * N * K, e * (M * K + K * N + 2 * M * N), hf, hb)) return;
    }
    printf("ok\n");
}

/* ---- 2. the bound ------------------------------------------------------------ */

static void check_bound(void)
{
    printf("  roofline_bound() on 200 machines and kernels, both sides of the ridge ... ");
    for (int i = 0; i < 200; i++) {
        double peak = (double)pick(10, 5000), bw = (double)pick(5, 3000);
        counts c = { (double)pick(1, 1000000), (double)pick(1, 1000000) };
        double want = fmin(peak, c.flops / c.bytes * bw), got = roofline_bound(c, peak, bw);
        if (!same(got, want)) {
            printf("wrong\n  peak %g GFLOP/s, bandwidth %g GB/s, %g flops on %g bytes: you said %g, want %g\n", peak, bw,
                   c.flops, c.bytes, got, want);
            fail(c.flops / c.bytes * bw > peak
                     ? "right of the ridge the compute roof is lower: the bound is the smaller of peak and I x bandwidth"
                     : "left of the ridge the bound is I x bandwidth, with I = flops / bytes");
            return;
        }
    }
    printf("ok\n");
}

/* ---- 3. the measurement -------------------------------------------------------- */

typedef struct { float *a, *b, *c; long n; int radius; double out; } arrays;

static void triad(void *p)
{
    arrays *x = p;
    float *restrict a = x->a;
    const float *restrict b = x->b, *restrict c = x->c;
    for (long i = 0; i < x->n; i++) a[i] = b[i] + 3.0f * c[i];
}

static void dot(void *p)
{
    arrays *x = p;
    float acc[32] = { 0 };   /* 32 partial sums: memory, not the adder's latency, sets the pace */
    long i = 0;
    for (; i + 32 <= x->n; i += 32)
        for (int k = 0; k < 32; k++) acc[k] += x->b[i + k] * x->c[i + k];
    for (; i < x->n; i++) acc[0] += x->b[i] * x->c[i];
    float s = 0;
    for (int k = 0; k < 32; k++) s += acc[k];
    x->out += s;
}

/* Radius 1 and 2 written out: each output's sum in a fixed order, so the
 * compiler vectorises across i without reassociating anything. (A blocked
 * loop over a general radius ran at half the memory's speed here: the
 * short bursts upset the prefetcher.) */
static void stencil(void *p)
{
    arrays *x = p;
    float *restrict y = x->a;
    const float *restrict v = x->b;
    long n = x->n;
    if (x->radius == 1)
        for (long i = 1; i < n - 1; i++) y[i] = 0.25f * ((v[i - 1] + v[i]) + v[i + 1]);
    else
        for (long i = 2; i < n - 2; i++) y[i] = 0.25f * ((((v[i - 2] + v[i - 1]) + v[i]) + v[i + 1]) + v[i + 2]);
}

/* The instruments are checked too, on a small awkward size, against double. */
static bool instruments_right(void)
{
    long n = 1001;
    float *a = pw_alloc_floats((size_t)n), *b = pw_alloc_floats((size_t)n), *c = pw_alloc_floats((size_t)n);
    pw_fill_random(b, (size_t)n, 1, -1, 1);
    pw_fill_random(c, (size_t)n, 2, -1, 1);
    arrays x = { a, b, c, n, 2, 0 };
    bool ok = true;
    triad(&x);
    for (long i = 0; i < n; i++) ok &= fabs(a[i] - ((double)b[i] + 3.0 * c[i])) <= 1e-6;
    double want = 0;
    for (long i = 0; i < n; i++) want += (double)b[i] * c[i];
    dot(&x);
    ok &= fabs(x.out - want) <= 1e-4;
    stencil(&x);
    for (long i = 2; i < n - 2; i++)
        ok &= fabs(a[i] - 0.25 * ((double)b[i - 2] + b[i - 1] + b[i] + b[i + 1] + b[i + 2])) <= 1e-6;
    pw_free(a); pw_free(b); pw_free(c);
    return ok;
}

static double best_seconds(pw_work_fn fn, arrays *x)
{
    pw_bench_config cfg = pw_bench_defaults();
    cfg.min_reps = 5;
    cfg.min_time_s = 0;
    cfg.min_sample_s = 0;
    pw_bench_stats st;
    pw_bench(&cfg, fn, x, &st);
    return st.min;
}

static void check_measured(void)
{
#ifdef UNDER_SANITIZER
    printf("  the measurement: not judged under a sanitizer (it slows the loops, not the probe's)\n");
    return;
#endif
    if (!instruments_right()) { fail("the checker's own kernels are wrong: report this as a bug"); return; }
    pw_hw hw;
    pw_probe_measure(&hw, true);
    long n = 16L << 20;   /* 64 MiB per array: past the last-level cache of most machines */
    float *a = pw_alloc_floats((size_t)n), *b = pw_alloc_floats((size_t)n), *c = pw_alloc_floats((size_t)n);
    pw_fill_random(b, (size_t)n, 3, 0, 1);
    pw_fill_random(c, (size_t)n, 4, 0, 1);
    memset(a, 0, (size_t)n * sizeof *a);
    printf("  this machine, one core (the probe): FP32 peak %.1f GFLOP/s, triad %.1f GB/s\n", hw.peak_gflops_1core,
           hw.bw_gbs_1core);
    printf("  %-12s %12s %14s %14s %8s\n", "kernel", "flop/byte", "your bound", "measured", "ratio");
    struct { const char *name; pw_work_fn fn; counts c; int radius; } k[] = {
        { "triad", triad, count_triad(4), 0 },
        { "dot", dot, count_dot(4), 0 },
        { "stencil r=1", stencil, count_stencil(1, 4), 1 },
        { "stencil r=2", stencil, count_stencil(2, 4), 2 },
    };
    for (int i = 0; i < 4; i++) {
        arrays x = { a, b, c, n, k[i].radius, 0 };
        double bound = 0, ratio = 0, rate = 0;
        /* Up to three tries, each with the bandwidth measured just before the
         * kernel: another program slows both alike, so their ratio holds. */
        for (int attempt = 0; attempt < 3; attempt++) {
            double bw = pw_triad_gbs(n, 1, 5);
            bound = roofline_bound(k[i].c, hw.peak_gflops_1core, bw);
            rate = k[i].c.flops * (double)n / best_seconds(k[i].fn, &x) * 1e-9;
            ratio = rate / bound;
            if (ratio >= 0.3 && ratio <= 1.6) break;
        }
        pw_sink += x.out;
        printf("  %-12s %12.3f %9.2f GF/s %9.2f GF/s %8.2f\n", k[i].name, k[i].c.flops / k[i].c.bytes, bound, rate, ratio);
        if (ratio < 0.3 || ratio > 1.6) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s reached %.2f of your bound, outside [0.3, 1.6]: a busy machine? try again",
                     k[i].name, ratio);
            fail(msg);
        }
    }
    pw_free(a); pw_free(b); pw_free(c);
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    printf("exercise 6.1: arithmetic intensity and the roofline's bound\n");
    check_counts();
    if (!failures) check_bound();
    if (!failures) check_measured();
    if (failures) {
        printf("FAIL: %d check%s failed\n", failures, failures == 1 ? "" : "s");
        return 1;
    }
    return pw_ex_pass("the counts of 4 kernels on many sizes, the bound on 200 machines, and 4 kernels measured against it");
}
