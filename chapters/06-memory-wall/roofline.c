/* chapters/06-memory-wall/roofline.c: the roofline, measured here, with the
 * kernels of chapters 01, 02 and 07 placed on it.
 *
 * The roofs: the probe's FP32 FMA peak (compute) and triad bandwidth (DRAM),
 * on one core and on all cores, and the L1 and L2 read bandwidths of the
 * staircase (kernels/memlevels.h) as the cache roofs. A kernel that does F
 * flops while its data crosses from memory B bytes can reach at most
 * min(peak, F/B x bandwidth): common/roofline.h. Each kernel is verified
 * against its double-precision reference first, then timed with its arrays
 * past the caches (so DRAM is the memory roof that applies), and printed with
 * its counted intensity, the bound, the measured rate, and the share of the
 * bound it reached.
 *
 *   ./build/ch06/roofline                 arrays of 24M floats (96 MiB each), GEMM at n = 512
 *   ./build/ch06/roofline -n 8M --gemm-n 256
 *   FULL=1 ./build/ch06/roofline          the probe's longer measurement of the roofs
 *
 * Counted bytes are compulsory traffic: each input array read once and each
 * output written once, 4 bytes a float (the write-allocate read of an output
 * line is not counted, as STREAM and the probe's triad do not count it);
 * for GEMM, kernels/gemm.h's 4(mk + kn + 2mn).
 *
 * What to expect: square, saxpy and dot sit far left of the ridge: however
 * they are written, they cannot pass a few GFLOP/s, a few % of the peak,
 * and their SIMD and scalar rungs land close together (all waiting for
 * memory). GEMM at n = 512 sits right of the ridge: its bound is the peak,
 * and the ladder's rungs climb towards it.
 */
#include "check.h"
#include "elementwise.h"
#include "errcheck.h"
#include "gemm.h"
#include "memlevels.h"
#include "options.h"
#include "probe.h"
#include "results.h"
#include "roofline.h"
#include "simd.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the streaming kernels of chapters 01 and 02 ------------------------- */

typedef enum { K_MAP, K_AXPY, K_DOT } kind;
typedef struct {
    char name[40];
    kind kind;
    simd_map_fn map;
    simd_axpy_fn axpy;
    simd_dot_fn dot;
    double flops, bytes;     /* per element, counted: see each entry in main */
} stream_kernel;

/* One call of kernel k over [lo, hi) of x and y; a dot returns its partial sum. */
static float run_range(const stream_kernel *k, const float *x, float *y, size_t lo, size_t hi)
{
    switch (k->kind) {
    case K_MAP: k->map(x + lo, y + lo, hi - lo); return 0;
    case K_AXPY: k->axpy(0.5f, x + lo, y + lo, hi - lo); return 0;
    case K_DOT: return k->dot(x + lo, y + lo, hi - lo);
    }
    return 0;
}

typedef struct { const stream_kernel *k; const float *x; float *y; size_t lo, hi; float part; } part_job;
static void *run_part(void *p)
{
    part_job *j = p;
    j->part = run_range(j->k, j->x, j->y, j->lo, j->hi);
    return NULL;
}

/* The kernel on `threads` threads, each its own contiguous share of the
 * arrays (threads made per call: ~50 us against milliseconds of work). A
 * dot's partial sums are added at the end. */
static float run_threads(const stream_kernel *k, const float *x, float *y, size_t n, int threads)
{
    if (threads <= 1) return run_range(k, x, y, 0, n);
    pthread_t tid[PW_MAX_LIST];
    part_job jobs[PW_MAX_LIST];
    for (int t = 0; t < threads; t++)
        jobs[t] = (part_job){ k, x, y, n * (size_t)t / (size_t)threads, n * (size_t)(t + 1) / (size_t)threads, 0 };
    for (int t = 1; t < threads; t++) PW_CHECK_PTHREAD(pthread_create(&tid[t], NULL, run_part, &jobs[t]));
    run_part(&jobs[0]);
    float s = jobs[0].part;
    for (int t = 1; t < threads; t++) {
        PW_CHECK_PTHREAD(pthread_join(tid[t], NULL));
        s += jobs[t].part;
    }
    return s;
}

/* PW_CH06_BREAK=<kernel name> spoils that kernel's result in the checks:
 * how tests/ch06_more.sh sees a wrong result caught. */
static bool broken(const char *name)
{
    const char *b = getenv("PW_CH06_BREAK");
    return b && !strcmp(b, name);
}

/* Kernel k on `threads` threads against the double reference, at awkward
 * sizes and n. Tolerances: square is exact (x*x rounded once either way);
 * saxpy 1e-6 relative (an FMA rung rounds once, the reference once, the
 * plain loop twice); dot 1e-5 of sum|x*y| (the order of the adds differs:
 * 8 or 16 partial sums, and per thread). */
static int verify_stream(const stream_kernel *k, int threads, float *x, float *y, float *want, size_t n)
{
    static const size_t sizes[] = { 1, 7, 33, 257, 1000003 };
    char what[96];
    for (size_t s = 0; s <= sizeof sizes / sizeof sizes[0]; s++) {
        size_t m = s < sizeof sizes / sizeof sizes[0] ? sizes[s] : n;
        if (m > n && s < sizeof sizes / sizeof sizes[0]) continue;
        pw_fill_random(x, m, 10 + s, -1.0f, 1.0f);
        pw_fill_random(y, m, 20 + s, -1.0f, 1.0f);
        snprintf(what, sizeof what, "%.40s on %d thread%s, n=%zu", k->name, threads, threads > 1 ? "s" : "", m);
        int bad;
        if (k->kind == K_DOT) {
            float got = run_threads(k, x, y, m, threads) + (broken(k->name) ? 1.0f : 0.0f);
            bad = pw_check_scalar(what, got, simd_dot_ref(x, y, m), 1e-5 * simd_dot_abs_ref(x, y, m), 0);
        } else if (k->kind == K_AXPY) {
            simd_saxpy_ref(0.5f, x, y, want, m);
            run_threads(k, x, y, m, threads);
            if (broken(k->name)) y[m - 1] += 1.0f;
            bad = pw_check_floats(what, y, want, m, 1e-7, 1e-6);
        } else {
            square_ref(x, want, m);
            run_threads(k, x, y, m, threads);
            if (broken(k->name)) y[m - 1] += 1.0f;
            bad = pw_check_floats(what, y, want, m, 0, 0);
        }
        if (bad) return 1;
    }
    return 0;
}

typedef struct { const stream_kernel *k; const float *x; float *y; size_t n; int threads; float out; } stream_ctx;
static void time_stream(void *p)
{
    stream_ctx *c = p;
    c->out = run_threads(c->k, c->x, c->y, c->n, c->threads);
}

/* ---- chapter 07's GEMM ladder ---------------------------------------------- */

typedef struct { const gemm_rung *r; int n; const float *A, *B; float *C; } gemm_ctx;
static void time_gemm(void *p)
{
    gemm_ctx *c = p;
    gemm_rung_run(c->r, c->n, c->n, c->n, c->A, c->B, c->C);
}

/* A rung on an awkward set of shapes (m x n x k) and on the timed one,
 * against gemm_ref in double with gemm.h's error bound. */
static int verify_gemm(const gemm_rung *r, int n, float *A, float *B, float *C, float *ref, float *absref)
{
    static const int shapes[][3] = { { 1, 1, 1 }, { 7, 7, 7 }, { 33, 33, 33 }, { 33, 17, 65 }, { 257, 31, 9 } };
    char what[96];
    for (size_t s = 0; s <= sizeof shapes / sizeof shapes[0]; s++) {
        int m = s < 5 ? shapes[s][0] : n, nn = s < 5 ? shapes[s][1] : n, k = s < 5 ? shapes[s][2] : n;
        pw_fill_random(A, (size_t)m * k, 30 + s, -1.0f, 1.0f);
        pw_fill_random(B, (size_t)k * nn, 40 + s, -1.0f, 1.0f);
        gemm_ref(m, nn, k, A, B, ref, absref);
        gemm_rung_run(r, m, nn, k, A, B, C);
        char label[64];
        snprintf(label, sizeof label, "gemm_%.40s", gemm_rung_name(r));
        if (broken(label)) C[(size_t)m * nn - 1] += 1.0f;
        snprintf(what, sizeof what, "gemm %.40s, %d x %d x %d", gemm_rung_name(r), m, nn, k);
        if (gemm_check(what, m, nn, k, C, ref, absref)) return 1;
    }
    return 0;
}

/* ---- the roofs --------------------------------------------------------------- */

/* --tiny: roofs from a few milliseconds of the probe's own building blocks
 * (a smoke test of the arithmetic, not a measurement). */
static void tiny_probe(pw_hw *hw)
{
    pw_probe_static(hw);
    hw->peak_gflops_1core = 0;
    for (int i = 0; i < pw_fma_accumulator_count_n; i++) {
        double g = pw_fma_loop_gflops(hw->isa, pw_fma_accumulator_counts[i], 0.002);
        if (g > hw->peak_gflops_1core) hw->peak_gflops_1core = g;
    }
    hw->peak_gflops_all = hw->peak_gflops_1core * hw->logical_cores;   /* assumed, not measured */
    hw->bw_gbs_1core = pw_triad_gbs(1L << 20, 1, 2);
    hw->bw_gbs_all = pw_triad_gbs(1L << 20, hw->logical_cores, 2);
}

static void print_roofs(const pw_roofs *r)
{
    if (!(r->peak_gflops > 0)) {   /* no usable peak at this thread count (pw_roofs_from_probe) */
        printf("%7d %12s %10.1f %10.1f %10.1f %12s   (below one core's peak: not used)\n", r->threads, "-", r->dram_gbs,
               r->l2_gbs, r->l1_gbs, "-");
        return;
    }
    printf("%7d %12.1f %10.1f %10.1f %10.1f %12.2f\n", r->threads, r->peak_gflops, r->dram_gbs, r->l2_gbs,
           r->l1_gbs, pw_roof_ridge(r));
}

/* One item of a comma-separated list printed under a heading line,
 * wrapped before 100 columns. *col is the current column (0: none yet). */
static void list_item(int *col, const char *heading, const char *item)
{
    int len = (int)strlen(item);
    if (*col == 0) { printf("%s\n  %s", heading, item); *col = 2 + len; return; }
    if (*col + 2 + len > 98) { printf(",\n  %s", item); *col = 2 + len; }
    else { printf(", %s", item); *col += 2 + len; }
}

/* ---- one point ----------------------------------------------------------------- */

typedef struct {
    char label[48];
    int threads;
    double flops, bytes, seconds, bound;
    const pw_roofs *roofs;
} point;

int main(int argc, char **argv)
{
    pw_list sizes = PW_LIST(25165824);
    long long gn = 512;
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &sizes, "N", "floats per array for square, saxpy, dot (default 24M: 96 MiB)", 1, PW_SIZE_MAX },
        { NULL, "--gemm-n", PW_OPT_INT, &gn, "N", "GEMM size, n x n x n (default 512)", 1, 8192 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "the roofline: measured roofs, and the kernels of chapters 01, 02, 07 on it", opts, 2, &common);
    if (sizes.n != 1) {
        fprintf(stderr, "%s: -n takes one size here\n", common.prog);
        return PW_EXIT_USAGE;
    }
    if (common.tiny) { sizes = (pw_list)PW_LIST(100003); gn = 64; }
    size_t n = (size_t)sizes.v[0], cap = n > 1000003 ? n : 1000003;
    pw_require_memory(common.prog, "-n", (long long)cap, sizeof(float), 3);
    pw_require_memory(common.prog, "--gemm-n", gn * gn, sizeof(float), 6);

    pw_hw hw;
    pw_probe_static(&hw);
    int cores = hw.logical_cores > PW_MAX_LIST ? PW_MAX_LIST : hw.logical_cores;

    /* The kernels. Counts per element: square y = x*x: 1 flop, read x and
     * write y, 8 bytes; saxpy y = a*x + y: 2 flops, read x, read y, write y,
     * 12 bytes; dot sum x*y: 2 flops, read x and y, 8 bytes. */
    const simd_variant *sax = simd_best(SIMD_SAXPY, &hw), *dot = simd_best(SIMD_DOT, &hw);
    stream_kernel ks[5];
    int nk = 0;
    ks[nk++] = (stream_kernel){ "square_loop", K_MAP, square_loop, NULL, NULL, 1, 8 };
    ks[nk++] = (stream_kernel){ "saxpy_scalar", K_AXPY, NULL, simd_saxpy_scalar, NULL, 2, 12 };
    if (sax && sax->axpy != simd_saxpy_scalar) {
        ks[nk] = (stream_kernel){ "", K_AXPY, NULL, sax->axpy, NULL, 2, 12 };
        snprintf(ks[nk++].name, sizeof ks[0].name, "%.39s", sax->name);
    }
    ks[nk++] = (stream_kernel){ "dot_scalar", K_DOT, NULL, NULL, simd_dot_scalar, 2, 8 };
    if (dot && dot->dot != simd_dot_scalar) {
        ks[nk] = (stream_kernel){ "", K_DOT, NULL, NULL, dot->dot, 2, 8 };
        snprintf(ks[nk++].name, sizeof ks[0].name, "%.39s", dot->name);
    }

    /* GEMM rungs: the ladder's named rungs that run here (naive is the
     * slowest: at n = 512 it takes about a second a call). */
    const gemm_rung *rungs[8];
    int nrung = 0;
    for (int i = 0; i < gemm_rung_count() && nrung < 8; i++) {
        const gemm_rung *r = gemm_rung_at(i);
        if (gemm_rung_available(r)) rungs[nrung++] = r;
    }

    /* ---- verify everything before timing anything ---- */
    float *x = pw_alloc_floats(cap), *y = pw_alloc_floats(cap), *want = pw_alloc_floats(cap);
    size_t g2 = (size_t)(gn > 257 ? gn : 257) * (size_t)(gn > 257 ? gn : 257);
    float *A = pw_alloc_floats(g2), *B = pw_alloc_floats(g2), *C = pw_alloc_floats(g2);
    float *ref = pw_alloc_floats(g2), *absref = pw_alloc_floats(g2);
    int bad = 0;
    for (int i = 0; i < nk && !bad; i++) {
        bad |= verify_stream(&ks[i], 1, x, y, want, n);
        if (!bad && cores > 1) bad |= verify_stream(&ks[i], cores, x, y, want, n);
    }
    for (int i = 0; i < nrung && !bad; i++) {
        gemm_set_threads(1);
        bad |= verify_gemm(rungs[i], (int)gn, A, B, C, ref, absref);
        if (!bad && rungs[i]->threaded && cores > 1) {
            gemm_set_threads(cores);
            bad |= verify_gemm(rungs[i], (int)gn, A, B, C, ref, absref);
        }
    }
    if (bad) {
        fprintf(stderr, "%s: a kernel gave a wrong result; nothing was timed\n", common.prog);
        pw_free(x); pw_free(y); pw_free(want);
        pw_free(A); pw_free(B); pw_free(C); pw_free(ref); pw_free(absref);
        return PW_EXIT_WRONG;
    }
    printf("all kernels match their double references (sizes 1, 7, 33, 257, 1000003 and %zu; GEMM 1^3, 7^3,\n"
           "33^3, 33x17x65, 257x31x9 and %lld^3; on 1 and %d threads where parallel)\n", n, gn, cores);

    /* ---- the roofs ---- */
    /* The probe's quick measurement (about a second), or its full one when
     * the chapter runs with FULL=1 (make chapter-6 FULL=1 passes it on). */
    const char *full = getenv("FULL");
    bool quick = !(full && !strcmp(full, "1"));
    if (common.tiny) tiny_probe(&hw);
    else {
        pw_probe_measure(&hw, quick);
        pw_probe_note(stdout, &hw);
    }
    pw_roofs roofs[2];
    /* The thread counts in their own array: with gcc 12 -O2/-O3 and
     * -fsanitize=undefined, reading them back from roofs[i].threads below gave
     * 2 for roofs[0] (printed as 1 just before); cause not found. */
    const int nroofs = cores > 1 ? 2 : 1, tcount[2] = { 1, cores };   /* one core, all cores */
    for (int i = 0; i < nroofs; i++) {
        int t = tcount[i];
        pw_roofs_from_probe(&hw, t, &roofs[i]);
        /* Cache roofs: the staircase's read bandwidth with a working set of
         * half of each level (the other half: the code, the stack, the
         * neighbour's lines). Skipped by --tiny. */
        if (!common.tiny && hw.l1d > 0) roofs[i].l1_gbs = memlevels_bw_gbs(hw.l1d / 2, t);
        if (!common.tiny && hw.l2 > 0) roofs[i].l2_gbs = memlevels_bw_gbs(hw.l2 / 2, t);
        /* A cache slower than DRAM is a failed measurement, not a roof. */
        if (roofs[i].l1_gbs > 0 && roofs[i].l1_gbs < roofs[i].dram_gbs) {
            printf("(the L1 roof on %d thread%s measured %.1f GB/s, below DRAM: left out)\n", t, t > 1 ? "s" : "",
                   roofs[i].l1_gbs);
            roofs[i].l1_gbs = 0;
        }
        if (roofs[i].l2_gbs > 0 && roofs[i].l2_gbs < roofs[i].dram_gbs) {
            printf("(the L2 roof on %d thread%s measured %.1f GB/s, below DRAM: left out)\n", t, t > 1 ? "s" : "",
                   roofs[i].l2_gbs);
            roofs[i].l2_gbs = 0;
        }
    }
    printf("\nthe roofs (%s%s)\n%7s %12s %10s %10s %10s %12s\n", pw_isa_name(hw.isa),
           common.tiny ? ", --tiny: a few ms each, not a measurement" : quick ? ", the probe, quick" : ", the probe, FULL=1",
           "threads", "peak GF/s", "DRAM GB/s", "L2 GB/s", "L1 GB/s", "ridge F/B");
    for (int i = 0; i < nroofs; i++) print_roofs(&roofs[i]);
    if (cores == 1) printf("(one logical core: no all-core roofs or points)\n");

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "isa", "%s", pw_isa_name(hw.isa));
    pw_csv_meta(csv, "bytes", "compulsory: inputs read once, outputs written once (no write-allocate); GEMM 4(mk+kn+2mn)");
    pw_csv_meta(csv, "gemm_n", "%lld", gn);
    for (int i = 0; i < nroofs; i++) pw_roofline_csv_roofs(csv, &roofs[i]);

    /* ---- time every kernel, 1 thread and all cores ---- */
    pw_bench_config cfg = pw_bench_from_opts(&common);
    point pts[64];
    int np = 0;
    pw_fill_random(x, n, 1, -1.0f, 1.0f);
    pw_fill_random(y, n, 2, -1.0f, 1.0f);
    for (int i = 0; i < nroofs; i++) {
        int t = tcount[i];
        for (int k = 0; k < nk; k++) {
            stream_ctx c = { &ks[k], x, y, n, t, 0 };
            pw_bench_stats st;
            pw_bench(&cfg, time_stream, &c, &st);
            pw_sink += c.out;
            point *p = &pts[np++];
            *p = (point){ "", t, ks[k].flops * (double)n, ks[k].bytes * (double)n, st.median, 0, &roofs[i] };
            snprintf(p->label, sizeof p->label, "%.40s", ks[k].name);
            pw_roofline_csv_point(csv, ks[k].name, (long long)n, t, &st, p->flops, p->bytes);
        }
        pw_fill_random(A, (size_t)(gn * gn), 3, -1.0f, 1.0f);
        pw_fill_random(B, (size_t)(gn * gn), 4, -1.0f, 1.0f);
        for (int r = 0; r < nrung; r++) {
            if (t > 1 && !rungs[r]->threaded) continue;    /* a sequential rung has no all-core point */
            gemm_set_threads(t);
            gemm_ctx c = { rungs[r], (int)gn, A, B, C };
            pw_bench_stats st;
            pw_bench(&cfg, time_gemm, &c, &st);
            point *p = &pts[np++];
            *p = (point){ "", t, gemm_flops((int)gn, (int)gn, (int)gn), gemm_bytes((int)gn, (int)gn, (int)gn),
                          st.median, 0, &roofs[i] };
            snprintf(p->label, sizeof p->label, "gemm_%.40s", gemm_rung_name(rungs[r]));
            pw_roofline_csv_point(csv, p->label, gn, t, &st, p->flops, p->bytes);
        }
    }

    printf("\nthe kernels (streaming ones on %zu floats an array, %s; GEMM at n = %lld)\n", n,
           n >= 4 * 1048576 ? "past the caches" : "small: may sit in the caches", gn);
    /* OpenBLAS's kernel depends on the CPU, or on OPENBLAS_CORETYPE where
     * the environment pins one (an AVX2 kernel on an AVX-512 CPU runs at
     * about half its speed): the point is only as good as the kernel named. */
    const char *pinned = getenv("OPENBLAS_CORETYPE");
    printf("OpenBLAS kernel: %s%s%s\n", gemm_openblas_corename(),
           pinned && *pinned ? ", pinned by OPENBLAS_CORETYPE=" : "", pinned && *pinned ? pinned : "");
    pw_roofline_print_header();
    for (int i = 0; i < np; i++) {
        pts[i].bound = pw_roof_bound(pts[i].roofs, pts[i].flops / pts[i].bytes);
        pw_roofline_print(pts[i].roofs, pts[i].label, pts[i].flops, pts[i].bytes, pts[i].seconds);
    }

    /* ---- the answer to the README's question, from this run ---- */
    printf("\nWhich kernels can the roofline say will never reach the compute peak, and why?\n");
    /* the all-core roof, unless this run's all-core peak is unusable (below
     * one core's: pw_roofs_from_probe leaves it NaN); then one core's */
    const pw_roofs *all = nroofs == 2 && roofs[1].peak_gflops > 0 ? &roofs[1] : &roofs[0];
    /* The answer in one line: every one-thread kernel left of the all-core
     * ridge, by name; the lines after it say why, one per intensity. */
    char never[512] = "";
    double worst = 0;   /* the most of the peak any of them may reach */
    for (int i = 0; i < np; i++) {
        double ai = pts[i].flops / pts[i].bytes;
        if (pts[i].threads != 1 || ai >= pw_roof_ridge(all)) continue;
        if (strlen(never) + strlen(pts[i].label) + 3 > sizeof never) continue;   /* room for ", " and the NUL */
        if (never[0]) strcat(never, ", ");
        strcat(never, pts[i].label);
        if (pw_roof_bound(all, ai) / all->peak_gflops > worst) worst = pw_roof_bound(all, ai) / all->peak_gflops;
    }
    if (never[0])
        printf("answer: %s: left of the ridge (%.1f flop/byte), so at most %.1f%% of the %d-thread peak\n", never,
               pw_roof_ridge(all), 100 * worst, all->threads);
    else
        printf("answer: none of this run's kernels is left of the ridge (%.1f flop/byte)\n", pw_roof_ridge(all));
    for (int i = 0; i < np; i++) {
        const point *p = &pts[i];
        if (p->threads != 1) continue;
        double ai = p->flops / p->bytes;
        bool seen = false;   /* one line per intensity class: the first kernel of it */
        for (int j = 0; j < i; j++) seen |= pts[j].threads == 1 && fabs(pts[j].flops / pts[j].bytes - ai) < 1e-9;
        if (seen) continue;
        if (ai < pw_roof_ridge(all))
            printf("- %s and its kind: %.3g flop/byte, left of the ridge (%.1f) even on all cores: at most\n"
                   "  %.3g x %.1f GB/s = %.2f GFLOP/s, %.1f%% of the %d-thread peak, however it is written.\n",
                   p->label, ai, pw_roof_ridge(all), ai, all->dram_gbs, pw_roof_bound(all, ai),
                   100 * pw_roof_bound(all, ai) / all->peak_gflops, all->threads);
        else
            printf("- %s and its rungs: %.3g flop/byte, right of the ridge (%.1f): the roofline allows the\n"
                   "  peak; only the code stands between them and it.\n", p->label, ai, pw_roof_ridge(all));
    }
    /* The streaming rungs: did SIMD matter, once memory binds? */
    double sc = 0, best = 0;
    for (int i = 0; i < np; i++) {
        if (pts[i].threads != 1) continue;
        if (!strcmp(pts[i].label, "saxpy_scalar")) sc = pts[i].seconds;
        if (sax && !strcmp(pts[i].label, sax->name)) best = pts[i].seconds;
    }
    if (!(sc > 0 && best > 0 && sax && sax->lanes > 1))
        printf("answer: not shown on this run: this build has no SIMD saxpy rung to set against the scalar one\n");
    else
        printf("answer: saxpy from DRAM: %s (%d lanes) ran %.2fx as fast as saxpy_scalar (1 lane): %s\n", sax->name,
               sax->lanes, sc / best, sc / best < sax->lanes / 4.0 ? "memory, not the lanes, set the pace."
                                                                  : "the lanes still paid here.");
    /* The all-core roofs against the one-core ones. */
    if (nroofs == 2 && roofs[1].dram_gbs < 1.1 * roofs[0].dram_gbs)
        printf("- %d threads got %.1f GB/s from memory, one got %.1f: no more bandwidth for more cores in this\n"
               "  run (one core can fill the memory channels, or the machine was busy).\n", roofs[1].threads,
               roofs[1].dram_gbs, roofs[0].dram_gbs);
    if (nroofs == 2 && !(roofs[1].peak_gflops > 0))
        printf("- on %d threads the probe's peak came out below one core's: no peak this run can show, so there is\n"
               "  no %d-thread roof (not drawn), and the answer above reads the one-core roof.\n", roofs[1].threads,
               roofs[1].threads);
    else if (nroofs == 2 && roofs[1].peak_gflops < 1.3 * roofs[0].peak_gflops)
        printf("- %d threads peaked at %.0f GFLOP/s, one at %.0f: the cores were not all ours during the probe\n"
               "  (a busy machine?), so the all-core points are judged against a low roof.\n", roofs[1].threads,
               roofs[1].peak_gflops, roofs[0].peak_gflops);
    /* Points far below their bound, and points above it: both say something. */
    int nlow = 0, nhigh = 0, npeak = 0;
    for (int i = 0; i < np; i++) {
        const point *p = &pts[i];
        double got = p->flops / p->seconds * 1e-9;
        bool compute = !strcmp(pw_roof_limit(p->roofs, p->flops / p->bytes), "compute");
        (void)compute;
        if (got < 0.5 * p->bound) {
            char item[96];
            snprintf(item, sizeof item, "%.48s on %d (%.0f%%)", p->label, p->threads, 100 * got / p->bound);
            list_item(&nlow, "- under half of their bound (threads, % of the bound): the roofs are not what holds them back", item);
        }
    }
    if (nlow) printf(".\n  Theory: a scalar dot is one chain of dependent adds (chapter 02); the GEMM rungs are\n"
                     "  chapter 07's ladder, each limited by how it uses the caches and registers, not by the roofs.\n");
    for (int i = 0; i < np; i++) {
        const point *p = &pts[i];
        double got = p->flops / p->seconds * 1e-9;
        if (got <= 1.05 * p->bound) continue;
        if (!strcmp(pw_roof_limit(p->roofs, p->flops / p->bytes), "compute")) {
            char item[96];
            snprintf(item, sizeof item, "%.48s on %d (%.1f > %.1f GFLOP/s)", p->label, p->threads, got, p->bound);
            list_item(&npeak, "- above the measured peak (threads, GFLOP/s):", item);
        }
    }
    if (npeak) printf(".\n  The probe's quick peak was low in this run (FULL=1 measures longer): a roof is a measurement too.\n");
    for (int i = 0; i < np; i++) {
        const point *p = &pts[i];
        double got = p->flops / p->seconds * 1e-9;
        if (got <= 1.05 * p->bound || !strcmp(pw_roof_limit(p->roofs, p->flops / p->bytes), "compute")) continue;
        char item[96];
        snprintf(item, sizeof item, "%.48s on %d (%.1f GB/s)", p->label, p->threads, p->bytes / p->seconds * 1e-9);
        list_item(&nhigh, "- above the DRAM roof (threads, counted GB/s against the triad's):", item);
    }
    if (nhigh)
        printf(".\n  The triad moves 16 bytes for the 12 it counts (a store first reads its line: write-allocate);\n"
               "  a kernel without a new output array (dot only reads, saxpy updates y in place) has no such\n"
               "  hidden traffic, so its counted rate can pass the triad's%s.\n",
               (long)n * 4 < hw.bw_array_bytes ? " (or, with -n smaller than the triad's arrays, a cache helped)" : "");

    pw_free(x); pw_free(y); pw_free(want);
    pw_free(A); pw_free(B); pw_free(C); pw_free(ref); pw_free(absref);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
