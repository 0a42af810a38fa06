/* chapters/07-gemm-cpu/gemm.c: the GEMM ladder, from three loops to
 * OpenBLAS, measured in one run.
 *
 * Every rung of kernels/gemm.h is checked against a double-precision
 * reference at awkward sizes (1, 7, 33, 257 and a non-square m x k x n)
 * and at the sizes it is timed at, before anything is timed. Then:
 *   1. the slow rungs (1_naive, 2_ikj, 3_blocked) with 4_simd and OpenBLAS
 *      beside them, on one core, at a small n (--small, default 512: naive
 *      at 2048 would take half a minute a call);
 *   2. the headline: 4_simd against OpenBLAS on one core at n (default
 *      2048), their samples taken in turns (pw_bench_sweep);
 *   3. 5_omp on 1, 2, ... threads with the Amdahl fit (common/scaling.h),
 *      the time spent packing at each, and OpenBLAS on all cores;
 *   4. each rung's % of peak, % of OpenBLAS, roofline point, why it beats
 *      the rung below (with this run's numbers), its time for 8192^3, and
 *      whether the top rung reached 0.9x OpenBLAS.
 *
 *   ./build/ch07/gemm                        everything, default sizes
 *   ./build/ch07/gemm --isa avx2 -n 1024     the AVX2 micro-kernel on an AVX-512 CPU
 *   ./build/ch07/gemm --verify-only --isa scalar
 */
#include "check.h"
#include "gemm.h"
#include "options.h"
#include "overlap.h"
#include "probe.h"
#include "results.h"
#include "roofline.h"
#include "scaling.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NRUNGS 6
#define TARGET 0.9   /* the chapter's benchmark: top rung >= 0.9x OpenBLAS */

typedef struct {
    const gemm_rung *r;
    int m, n, k;
    const float *A, *B;
    float *C;
    int threads;
    double pack_s;    /* gemm_last_pack_seconds of the latest call */
    pw_overlap *ov;   /* if not NULL: did the threads run at the same time? */
} job;

static void run_job(void *arg)
{
    job *j = arg;
    gemm_set_threads(j->threads);
    pw_overlap_mark mark = pw_overlap_begin();
    gemm_rung_run(j->r, j->m, j->n, j->k, j->A, j->B, j->C);
    if (j->ov) pw_overlap_end(j->ov, mark);
    j->pack_s = gemm_last_pack_seconds();
}

static const char *plant;   /* --plant RUNG: a test hook, see main */

/* Run rung r on threads and compare with the double reference. */
static int check_rung(const gemm_rung *r, int threads, int m, int n, int k, const float *A, const float *B,
                      float *C, const float *ref, const float *absref)
{
    for (size_t x = 0; x < (size_t)m * n; x++) C[x] = NAN;   /* what it does not write is wrong */
    job j = { r, m, n, k, A, B, C, threads, 0, NULL };
    run_job(&j);
    if (plant && !strcmp(plant, gemm_rung_name(r))) C[(size_t)m * n - 1] += 1.0f;
    char what[96];
    snprintf(what, sizeof what, "%s (%s, %d thread%s)", gemm_rung_name(r), pw_isa_name(gemm_isa()), threads,
             threads == 1 ? "" : "s");
    return gemm_check(what, m, n, k, C, ref, absref);
}

/* Spot check of a large product: `count` entries (fixed seed) against the
 * double reference with the same bound as gemm_check. */
static int spot_check(const char *what, int m, int n, int k, const float *A, const float *B, const float *C, int count)
{
    uint64_t s = 12345;
    double g = gemm_tolerance(k);
    for (int t = 0; t < count; t++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        int i = t == 0 ? m - 1 : (int)(s % (uint64_t)m), jj = t == 0 ? n - 1 : (int)((s >> 20) % (uint64_t)n);
        double abs, want = gemm_ref_entry(n, k, A, B, i, jj, &abs);
        double got = C[(size_t)i * n + jj];
        if (!(fabs(got - want) <= g * abs * (1 + 0x1p-23) + 0x1p-24 * fabs(want) + 1e-30)) {
            fprintf(stderr, "%s: wrong at m=%d n=%d k=%d; first bad index %zu (row %d, column %d): got %.9g, want %.9g\n",
                    what, m, n, k, (size_t)i * n + jj, i, jj, got, want);
            return 1;
        }
    }
    return 0;
}

/* One line of the ladder's table: a rung timed at n on `threads`, with the
 * OpenBLAS timing it is compared with (NULL: none). */
typedef struct { int rung, n, threads; const pw_bench_stats *st, *blas; } table_row;

static double pct(double a, double b) { return b > 0 ? 100.0 * a / b : NAN; }

int main(int argc, char **argv)
{
    pw_list nbig = PW_LIST(2048), nmid = PW_LIST(1024), nsmall = PW_LIST(512), threads = { .n = 0 };
    const char *isa_name = NULL, *tile = NULL, *only = NULL;
    long long kc = 0, mc = 0, nc = 0;
    bool verify_only = false;
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &nbig, "N", "n for the headline rungs 0, 4, 5 (default 2048)", 1, 16384 },
        { NULL, "--small", PW_OPT_SIZES, &nsmall, "N", "n for every rung but 5, 1_naive included (default 512)", 1, 16384 },
        { NULL, "--mid", PW_OPT_SIZES, &nmid, "N", "n for rungs 0, 2, 3, 4, with B past L2 (default 1024)", 1, 16384 },
        { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "thread counts for 5_omp (default 1..cores, 2x cores)", 1, PW_MAX_THREADS },
        { NULL, "--isa", PW_OPT_STRING, &isa_name, "ISA", "micro-kernel: scalar, sse, avx2, avx512, neon (exit 2 if not here)", 0, 0 },
        { NULL, "--tile", PW_OPT_STRING, &tile, "MRxNR", "micro-tile shape of that ISA (e.g. 14x32; default the first)", 0, 0 },
        { NULL, "--kc", PW_OPT_INT, &kc, "KC", "depth of the packed panels (default from L1)", 1, 4096 },
        { NULL, "--mc", PW_OPT_INT, &mc, "MC", "rows of the packed A block (default from L2)", 1, 16384 },
        { NULL, "--nc", PW_OPT_INT, &nc, "NC", "columns of the packed B panel (default 4096)", 1, 65536 },
        { NULL, "--rung", PW_OPT_STRING, &only, "R", "check (and time) only rung R: a number or a name", 0, 0 },
        { NULL, "--verify-only", PW_OPT_FLAG, &verify_only, NULL, "check every rung, time nothing", 0, 0 },
        { NULL, "--plant", PW_OPT_STRING, &plant, "R", "test hook: corrupt one element of rung R's result", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "the GEMM ladder: naive to a packed SIMD micro-kernel, against OpenBLAS", opts,
                     (int)(sizeof opts / sizeof opts[0]), &common);
    if (threads.n == 0) pw_default_threads(&threads, common.prog);
    if (nbig.n != 1 || nsmall.n != 1 || nmid.n != 1) {
        fprintf(stderr, "%s: -n, --mid and --small take one size each\n", common.prog);
        return PW_EXIT_USAGE;
    }
    if (common.tiny) { nbig = (pw_list)PW_LIST(96); nmid = (pw_list)PW_LIST(64); nsmall = (pw_list)PW_LIST(48); }
    int n = (int)nbig.v[0], nm = (int)nmid.v[0], ns = (int)nsmall.v[0], cores = pw_cores();

    /* ---- settings ---- */
    if (isa_name) {
        pw_isa isa;
        static const char *names[] = { "scalar", "sse", "avx2", "avx512", "neon" };
        int found = -1;
        for (int i = 0; i < 5; i++) if (!strcmp(isa_name, names[i])) found = i;
        if (found < 0) {
            fprintf(stderr, "%s: --isa: unknown ISA '%s' (scalar, sse, avx2, avx512, neon)\n", common.prog, isa_name);
            return PW_EXIT_USAGE;
        }
        isa = (pw_isa)found;
        if (!gemm_use_isa(isa)) {
            fprintf(stderr, "%s: --isa %s: this CPU or build cannot run it (it has %s)\n", common.prog, isa_name,
                    pw_isa_name(gemm_isa()));
            return PW_EXIT_USAGE;
        }
    }
    if (tile) {
        int mr = 0, nr = 0;
        char extra;
        if (sscanf(tile, "%dx%d%c", &mr, &nr, &extra) != 2 || mr <= 0 || nr <= 0 || !gemm_use_tile(mr, nr)) {
            fprintf(stderr, "%s: --tile: '%s' is not a shape of the %s micro-kernel (%s)\n", common.prog, tile,
                    pw_isa_name(gemm_isa()), gemm_tile_shapes());
            return PW_EXIT_USAGE;
        }
    }
    gemm_set_blocking((int)kc, (int)mc, (int)nc);
    const gemm_rung *rung_only = NULL;
    if (only && !(rung_only = gemm_rung_find(only))) {
        fprintf(stderr, "%s: --rung: no rung '%s' (0..%d or a name such as 4_simd)\n", common.prog, only,
                gemm_rung_count() - 1);
        return PW_EXIT_USAGE;
    }
    if (plant && !gemm_rung_find(plant)) {
        fprintf(stderr, "%s: --plant: no rung '%s'\n", common.prog, plant);
        return PW_EXIT_USAGE;
    }
    if (plant) plant = gemm_rung_name(gemm_rung_find(plant));
    int nmax = n > ns ? n : ns;
    if (nm > nmax) nmax = nm;
    /* A, B, C, and at the small size a reference and its error scale. */
    pw_require_memory(common.prog, "-n", (long long)nmax * nmax, sizeof(float), 5);

    gemm_blocking bl = gemm_get_blocking();
    printf("micro-kernel: %s, tile %d x %d (%s)\n", pw_isa_name(gemm_isa()), bl.mr, bl.nr, bl.why);
    pw_hw caches;
    pw_probe_static(&caches);
    printf("blocking: KC = %d, MC = %d, NC = %d (B sliver %d KiB, L1 %ld KiB; A block %d KiB, L2 %ld KiB; B panel %d KiB); "
           "3_blocked: %d x %d blocks of B\n", bl.kc, bl.mc, bl.nc, bl.kc * bl.nr * 4 / 1024, caches.l1d / 1024,
           bl.mc * bl.kc * 4 / 1024, caches.l2 / 1024, bl.kc * bl.nc * 4 / 1024, gemm_block_tile(), 4 * gemm_block_tile());
    const char *pinned = getenv("OPENBLAS_CORETYPE");
#if PW_HAVE_OPENBLAS
    printf("OpenBLAS: kernel %s; %s\n", gemm_openblas_corename(), gemm_openblas_config());
    if (pinned && *pinned)
        printf("  OPENBLAS_CORETYPE=%s pins that kernel: it may not be OpenBLAS's best for this CPU "
               "(chapters/07-gemm-cpu/run.sh unsets it)\n", pinned);
    else
        printf("  OPENBLAS_CORETYPE is not set: OpenBLAS chose its kernel for this CPU\n");
#else
    printf("OpenBLAS: not linked: rung 0 and every %% of OpenBLAS are skipped (apt install libopenblas-dev)\n");
#endif

    /* ---- 1. verify ---- */
    static const int shapes[][3] = { { 1, 1, 1 }, { 7, 7, 7 }, { 33, 33, 33 }, { 257, 257, 257 }, { 70, 301, 133 } };
    int bad = 0;
    int first = rung_only ? (int)(rung_only - gemm_rung_at(0)) : 0, last = rung_only ? first : gemm_rung_count() - 1;
    for (int s = 0; s < 5 + 1; s++) {
        /* m x k x n; the last "shape" is the small timed size */
        int m = s < 5 ? shapes[s][0] : ns, k = s < 5 ? shapes[s][1] : ns, nn = s < 5 ? shapes[s][2] : ns;
        float *A = pw_alloc_floats((size_t)m * k), *B = pw_alloc_floats((size_t)k * nn);
        float *C = pw_alloc_floats((size_t)m * nn), *ref = pw_alloc_floats((size_t)m * nn), *abs = pw_alloc_floats((size_t)m * nn);
        pw_fill_random(A, (size_t)m * k, 7 + (uint64_t)s, -1, 1);
        pw_fill_random(B, (size_t)k * nn, 77 + (uint64_t)s, -1, 1);
        gemm_ref(m, nn, k, A, B, ref, abs);
        for (int r = first; r <= last; r++) {
            const gemm_rung *g = gemm_rung_at(r);
            if (!gemm_rung_available(g)) continue;
            if (g->threaded)
                for (int t = 0; t < threads.n; t++) bad |= check_rung(g, (int)threads.v[t], m, nn, k, A, B, C, ref, abs);
            else
                bad |= check_rung(g, 1, m, nn, k, A, B, C, ref, abs);
        }
        pw_free(A); pw_free(B); pw_free(C); pw_free(ref); pw_free(abs);
    }
    /* The headline size: too big for a full double reference in a quick run
     * (2n^3 double flops), so 256 entries of each headline rung's result,
     * the last element among them, against the same bound. */
    float *A = pw_alloc_floats((size_t)nmax * nmax), *B = pw_alloc_floats((size_t)nmax * nmax);
    float *C = pw_alloc_floats((size_t)nmax * nmax);
    pw_fill_random(A, (size_t)nmax * nmax, 1, -1, 1);
    pw_fill_random(B, (size_t)nmax * nmax, 2, -1, 1);
    static const int spot_rungs[] = { 0, 2, 3, 4, 0, 4, 5 };   /* the first four at the mid n */
    for (int h = 0; h < 7 && !bad; h++) {
        const gemm_rung *g = gemm_rung_at(spot_rungs[h]);
        int size = h < 4 ? nm : n;
        if (!gemm_rung_available(g) || (rung_only && rung_only != g)) continue;
        int tmax = g->threaded ? (int)pw_list_max(&threads) : 1;
        job j = { g, size, size, size, A, B, C, tmax, 0, NULL };
        run_job(&j);
        if (plant && !strcmp(plant, gemm_rung_name(g))) C[(size_t)size * size - 1] += 1.0f;
        char what[64];
        snprintf(what, sizeof what, "%s at n = %d", gemm_rung_name(g), size);
        bad |= spot_check(what, size, size, size, A, B, C, 256);
    }
    if (bad) {
        fprintf(stderr, "%s: a rung gave a wrong result; nothing was timed\n", common.prog);
        pw_free(A); pw_free(B); pw_free(C);
        return PW_EXIT_WRONG;
    }
    printf("\nall rungs match the double-precision reference (m x k x n = 1, 7, 33, 257, 70x301x133 and %d^3 in full,\n"
           "%d^3 and %d^3 at 256 entries; threaded rungs at every thread count; tolerance: gamma_k * sum|a*b|, the\n"
           "bound of a k-term float dot product in any order)\n", ns, nm, n);
    if (verify_only) {
        pw_free(A); pw_free(B); pw_free(C);
        return PW_EXIT_PASS;
    }

    /* ---- the machine ---- */
    pw_hw hw;
    pw_probe_measure(&hw, true);   /* quick: the full probe allocates 4x the L3 a VM reports (2 GiB here) */
    pw_roofs roof1, roofall;
    pw_roofs_from_probe(&hw, 1, &roof1);
    pw_roofs_from_probe(&hw, cores, &roofall);
    pw_probe_note(stdout, &hw);
    double peak_all = pw_probe_all_core_usable(&hw) ? hw.peak_gflops_all : NAN;   /* NaN: not used (said above) */

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "microkernel", "%s %dx%d", pw_isa_name(gemm_isa()), bl.mr, bl.nr);
    pw_csv_meta(csv, "blocking", "KC=%d MC=%d NC=%d", bl.kc, bl.mc, bl.nc);
    pw_csv_meta(csv, "openblas", "%s", gemm_openblas_corename());
    pw_csv_meta(csv, "openblas_coretype", "%s", pinned ? pinned : "unset");
    pw_roofline_csv_roofs(csv, &roof1);
    if (cores > 1) pw_roofline_csv_roofs(csv, &roofall);
    pw_bench_config cfg = pw_bench_from_opts(&common);
    cfg.min_sample_s = 0;   /* one product per sample */

    /* Results: [rung] at the small n (1 thread), the mid n (1 thread), n (1
     * thread), n (all cores). */
    pw_bench_stats small[NRUNGS], mid[NRUNGS], big1[NRUNGS], bigall[NRUNGS];
    bool has_small[NRUNGS] = { 0 }, has_mid[NRUNGS] = { 0 }, has_big1[NRUNGS] = { 0 }, has_bigall[NRUNGS] = { 0 };
    double pack_share1 = NAN;

    /* ---- 2. rungs 0-4 at the small n, and all but naive at the mid n, one core ---- */
    for (int pass = 0; pass < 2; pass++) {
        int size = pass == 0 ? ns : nm;
        job jobs[NRUNGS];
        void *ctxs[NRUNGS];
        pw_work_fn fns[NRUNGS];
        int idx[NRUNGS], cnt = 0;
        for (int r = 0; r <= 4; r++) {
            const gemm_rung *g = gemm_rung_at(r);
            if (!gemm_rung_available(g) || (rung_only && rung_only != g) || (pass == 1 && r == 1)) continue;
            jobs[cnt] = (job){ g, size, size, size, A, B, C, 1, 0, NULL };
            ctxs[cnt] = &jobs[cnt];
            fns[cnt] = run_job;
            idx[cnt++] = r;
        }
        pw_bench_stats st[NRUNGS];
        if (cnt) {
            printf("\n== %d. the ladder at n = %d on one core (samples in turns)%s\n", pass + 1, size,
                   pass == 1 ? ": 1_naive left out (minutes at this size)" : "");
            pw_bench_sweep(&cfg, fns, ctxs, cnt, st);
        }
        for (int i = 0; i < cnt; i++) {
            if (pass == 0) { small[idx[i]] = st[i]; has_small[idx[i]] = true; }
            else { mid[idx[i]] = st[i]; has_mid[idx[i]] = true; }
        }
    }

    /* ---- 3. the headline on one core: 4_simd against OpenBLAS ---- */
    {
        job jobs[2];
        void *ctxs[2];
        pw_work_fn fns[2] = { run_job, run_job };
        int idx[2], cnt = 0;
        for (int r = 0; r <= 4; r += 4) {
            const gemm_rung *g = gemm_rung_at(r);
            if (!gemm_rung_available(g) || (rung_only && rung_only != g)) continue;
            jobs[cnt] = (job){ g, n, n, n, A, B, C, 1, 0, NULL };
            ctxs[cnt] = &jobs[cnt];
            idx[cnt++] = r;
        }
        pw_bench_stats st[2];
        if (cnt) {
            printf("== 3. the headline at n = %d on one core%s\n", n, cnt == 2 ? ": 4_simd and OpenBLAS in turns" : "");
            pw_bench_sweep(&cfg, fns, ctxs, cnt, st);
        }
        for (int i = 0; i < cnt; i++) {
            big1[idx[i]] = st[i];
            has_big1[idx[i]] = true;
            if (idx[i] == 4) pack_share1 = jobs[i].pack_s / st[i].median;
        }
    }

    /* ---- 4. 5_omp over the threads, then OpenBLAS on all cores ---- */
    pw_scaling_fit fit = { .p = NAN };
    bool omp_suspect = false, blas_suspect = false;
    double pack_share[PW_MAX_LIST];
    const gemm_rung *omp = gemm_rung_at(5), *blas = gemm_rung_at(0);
    if (!rung_only || rung_only == omp) {
        printf("== 4. 5_omp at n = %d on 1..%d threads (one thread count after the other)\n", n, (int)pw_list_max(&threads));
        pw_scaling_point pts[PW_MAX_LIST];
        pw_overlap ovs[PW_MAX_LIST];
        double base = NAN;
        for (int t = 0; t < threads.n; t++) {
            ovs[t] = (pw_overlap){ 0, 0, 0 };
            job j = { omp, n, n, n, A, B, C, (int)threads.v[t], 0, &ovs[t] };
            pts[t].threads = j.threads;
            pw_bench(&cfg, run_job, &j, &pts[t].st);
            pack_share[t] = j.pack_s / pts[t].st.median;
            if (j.threads == 1) base = pts[t].st.median;
            if (j.threads == cores) {
                bigall[5] = pts[t].st;
                has_bigall[5] = true;
                omp_suspect = pw_overlap_suspect(&ovs[t], cores, cores);
            }
        }
        if (isnan(base)) base = pts[0].st.median * pts[0].threads;   /* no 1-thread point: scaled, and said */
        fit = pw_scaling_report_overlap(csv, "5_omp", n, "threads", base, pts, threads.n, gemm_flops(n, n, n),
                                        gemm_bytes(n, n, n), cores, ovs);
        printf("packing (the busiest thread's time in pack_a and pack_b, barrier waits included) per run:");
        for (int t = 0; t < threads.n; t++) printf(" %d: %.1f%%", (int)threads.v[t], 100 * pack_share[t]);
        printf("\n");
    }
    if (gemm_rung_available(blas) && (!rung_only || rung_only == blas) && cores > 1) {
        pw_overlap ov = { 0, 0, 0 };
        job j = { blas, n, n, n, A, B, C, cores, 0, &ov };
        pw_bench(&cfg, run_job, &j, &bigall[0]);
        has_bigall[0] = true;
        blas_suspect = pw_overlap_suspect(&ov, cores, cores);
        pw_overlap_warn(stdout, "OpenBLAS on all cores", &ov, cores, cores);
    }

    /* ---- 5. the table ---- */
    double flops_s = gemm_flops(ns, ns, ns), flops_b = gemm_flops(n, n, n), flops_m = gemm_flops(nm, nm, nm);
    const double f8192 = gemm_flops(8192, 8192, 8192);
    printf("\n%-11s %6s %4s %11s %6s %10s %8s %9s %10s\n", "rung", "n", "thr", "median", "IQR", "GFLOP/s",
           "% peak", "% OpenBLAS", "8192^3 in");
    table_row rows[16];
    int nrows = 0;
    for (int r = 0; r <= 4; r++) if (has_small[r]) rows[nrows++] = (table_row){ r, ns, 1, &small[r], has_small[0] ? &small[0] : NULL };
    for (int r = 0; r <= 4; r++) if (has_mid[r]) rows[nrows++] = (table_row){ r, nm, 1, &mid[r], has_mid[0] ? &mid[0] : NULL };
    for (int r = 0; r <= 4; r += 4) if (has_big1[r]) rows[nrows++] = (table_row){ r, n, 1, &big1[r], has_big1[0] ? &big1[0] : NULL };
    for (int r = 0; r <= 5; r += 5) if (has_bigall[r]) rows[nrows++] = (table_row){ r, n, cores, &bigall[r], has_bigall[0] ? &bigall[0] : NULL };
    for (int i = 0; i < nrows; i++) {
        const gemm_rung *g = gemm_rung_at(rows[i].rung);
        double fl = gemm_flops(rows[i].n, rows[i].n, rows[i].n), by = gemm_bytes(rows[i].n, rows[i].n, rows[i].n);
        double gf = pw_gflops(fl, rows[i].st->median);
        double peak = rows[i].threads == 1 ? hw.peak_gflops_1core : peak_all;
        double ob = rows[i].blas ? pw_gflops(fl, rows[i].blas->median) : NAN;
        double secs8192 = f8192 / (gf * 1e9);
        char t8192[32];
        if (secs8192 < 120) snprintf(t8192, sizeof t8192, "%.1f s", secs8192);
        else if (secs8192 < 7200) snprintf(t8192, sizeof t8192, "%.1f min", secs8192 / 60);
        else snprintf(t8192, sizeof t8192, "%.1f h", secs8192 / 3600);
        char of_blas[16];
        if (isnan(ob)) snprintf(of_blas, sizeof of_blas, "-");
        else snprintf(of_blas, sizeof of_blas, "%.1f%%", pct(gf, ob));
        char of_peak[16];
        if (isnan(pct(gf, peak))) snprintf(of_peak, sizeof of_peak, "-");
        else snprintf(of_peak, sizeof of_peak, "%.1f%%", pct(gf, peak));
        printf("%-11s %6d %4d %8.2f ms %5.1f%% %10.1f %8s %10s %10s%s\n", gemm_rung_name(g), rows[i].n,
               rows[i].threads, rows[i].st->median * 1e3, pct(rows[i].st->q3 - rows[i].st->q1, rows[i].st->median),
               gf, of_peak, of_blas, t8192, gf > peak * 1.05 ? "  above the probe's peak: suspicious (or a low probe)" : "");
        pw_csv_summary(csv, gemm_rung_name(g), rows[i].n, rows[i].threads, "ladder", rows[i].st, fl, by);
        if (!isnan(pct(gf, peak))) pw_csv_quantity(csv, "pct_peak", rows[i].n, rows[i].threads, gemm_rung_name(g), pct(gf, peak));
        if (!isnan(ob)) pw_csv_quantity(csv, "pct_openblas", rows[i].n, rows[i].threads, gemm_rung_name(g), pct(gf, ob));
        char label[48];
        snprintf(label, sizeof label, "%s n=%d", gemm_rung_name(g), rows[i].n);
        pw_roofline_csv_point(csv, label, rows[i].n, rows[i].threads, rows[i].st, fl, by);
    }
    printf("%% peak: of the probe's FP32 FMA peak for that thread count; %% OpenBLAS: of OpenBLAS at the same n and "
           "threads;\n8192^3 in: 2 x 8192^3 = %.2f trillion flops at the rung's measured rate\n", f8192 * 1e-12);

    /* ---- 6. the roofline ---- */
    printf("\nthe roofline (compulsory traffic 4(mk + kn + 2mn) bytes: A, B read once, C read and written once)\n");
    pw_roofline_print_header();
    for (int i = 0; i < nrows; i++) {
        char label[40];
        snprintf(label, sizeof label, "%s n=%d", gemm_rung_name(gemm_rung_at(rows[i].rung)), rows[i].n);
        int sz = rows[i].n;
        pw_roofline_print(rows[i].threads == 1 ? &roof1 : &roofall, label, gemm_flops(sz, sz, sz),
                          gemm_bytes(sz, sz, sz), rows[i].st->median);
    }
    printf("every rung has the same intensity (%.0f flop/byte at n = %d, %.0f at %d): far right of the ridge (%.1f), so\n"
           "the roofline says compute-bound for all of them; what separates them is the traffic they add beyond it.\n",
           gemm_flops(ns, ns, ns) / gemm_bytes(ns, ns, ns), ns, flops_b / gemm_bytes(n, n, n), n, pw_roof_ridge(&roof1));

    /* ---- 7. why each rung beats the one below, with this run's numbers ---- */
    printf("\n== why each rung beats the one below (model, then this run's measured ratio)\n");
    double g1 = has_small[1] ? pw_gflops(flops_s, small[1].median) : NAN;
    double g2 = has_small[2] ? pw_gflops(flops_s, small[2].median) : NAN;
    double g3 = has_small[3] ? pw_gflops(flops_s, small[3].median) : NAN;
    double g4s = has_small[4] ? pw_gflops(flops_s, small[4].median) : NAN;
    double g4 = has_big1[4] ? pw_gflops(flops_b, big1[4].median) : NAN;
    double g0 = has_big1[0] ? pw_gflops(flops_b, big1[0].median) : NAN;
    double g5 = has_bigall[5] ? pw_gflops(flops_b, bigall[5].median) : NAN;
    double g0all = has_bigall[0] ? pw_gflops(flops_b, bigall[0].median) : NAN;
    int t = gemm_block_tile(), lanes = pw_isa_lanes(gemm_isa());
    double bmib = (double)ns * ns * 4 / 1048576;
    (void)g3;
    if (!isnan(g1))
        printf("1_naive:   its inner loop steps n = %d floats through B, a new 64-byte line for every 2 flops "
               "(32 bytes from cache per flop; B is %.2f MiB, L1 %ld KiB%s), and its one sum is a chain of "
               "dependent adds: %.2f GFLOP/s\n", ns, bmib, hw.l1d / 1024,
               bmib * 1048576 <= hw.l1d ? ": here B fits in L1, so only the chain shows" : "", g1);
    if (!isnan(g2))
        printf("2_ikj:     rows of B and C: 3 lines (B, C read, C written) per 16 terms, 3/32 of a line per flop against "
               "1/2: %.1fx fewer lines, and the terms are independent, so vectorised: %.1fx faster than 1_naive\n",
               (1.0 / 2) / (3.0 / 32), g2 / g1);
    double g2m = has_mid[2] ? pw_gflops(flops_m, mid[2].median) : NAN;
    double g3m = has_mid[3] ? pw_gflops(flops_m, mid[3].median) : NAN;
    double g4m = has_mid[4] ? pw_gflops(flops_m, mid[4].median) : NAN;
    if (!isnan(g3m) && !isnan(g2m)) {
        double bm = (double)nm * nm * 4;   /* bytes of B (and of C) at the mid n */
        double ikj_gb = bm * nm / 1e9;     /* all of B once per row of C */
        double blk_gb = (bm + 2 * bm * ceil((double)nm / t)) / 1e9;   /* B once; C read and written per KB of depth */
        if (bm <= hw.l2)
            printf("3_blocked: at n = %d all of B (%.2f MiB) fits in L2 (%ld KiB): blocking for L2 has nothing to save "
                   "here: %.2fx 2_ikj's speed (at n = %d: %.2fx)\n", nm, bm / 1048576, hw.l2 / 1024, g3m / g2m, ns,
                   g3 / g2);
        else
            printf("3_blocked: 2_ikj reads all of B (%.1f MiB, past the %ld KiB L2) once per row of C: %.1f GB from "
                   "beyond L2 at n = %d; a %dx%d block of B (%d KiB) stays in L2 for all %d rows: B once and C once per "
                   "%d of depth, %.2f GB, %.0fx less: %.2fx 2_ikj's speed (at n = %d, where B fits in L2: %.2fx)\n",
                   bm / 1048576, hw.l2 / 1024, ikj_gb, nm, t, 4 * t, t * 4 * t * 4 / 1024, nm, t, blk_gb,
                   ikj_gb / blk_gb, g3m / g2m, ns, g3 / g2);
        if (bm > hw.l2 && g3m / g2m < 1.2)
            printf("           so traffic past L2 was not 2_ikj's limit here: at %.1f GFLOP/s it needs %.0f GB/s of B, "
                   "which the L3 delivers; both rungs are held by the inner loop's 3 loads and stores per "
                   "multiply-add, which only registers remove (rung 4)\n", g2m, g2m * 2);
    }
    if (!isnan(g4m) && !isnan(g3m)) {
        double per_fma_blocked = 3.0;   /* load b, load c, store c per multiply-add */
        double per_fma_tile = (double)(bl.mr + bl.nr / lanes) / ((double)bl.mr * bl.nr);
        printf("4_simd:    3_blocked does 3 memory operations (load b, load c, store c) per multiply-add; the %dx%d "
               "register tile does %d (%d B vectors + %d broadcasts) per %d: %.3f, %.0fx fewer; packing keeps the "
               "slivers contiguous and aligned: %.1fx 3_blocked's speed at n = %d (%.1fx at %d)\n",
               bl.mr, bl.nr, bl.mr + bl.nr / lanes, bl.nr / lanes, bl.mr, bl.mr * bl.nr, per_fma_tile,
               per_fma_blocked / per_fma_tile, g4m / g3m, nm, g4s / g3, ns);
    }
    if (!isnan(g4) && !isnan(pack_share1))
        printf("           at n = %d it reaches %.1f GFLOP/s, %.1f%% of the 1-core peak; packing took %.1f%% of its time\n",
               n, g4, pct(g4, hw.peak_gflops_1core), 100 * pack_share1);
#ifdef _OPENMP
    bool omp_built = true;
#else
    bool omp_built = false;
#endif
    if (!isnan(g5) && !isnan(g4) && omp_built) {
        char fitted[96];
        if (isnan(fit.p) || fit.p <= 0) snprintf(fitted, sizeof fitted, "no Amdahl fit from this run: see above");
        else snprintf(fitted, sizeof fitted, "fitted Amdahl p = %.3f, serial share %.1f%%", fit.p, 100 * (1 - fit.p));
        char of_all[64];
        if (isnan(peak_all)) snprintf(of_all, sizeof of_all, "no usable all-core peak in this run");
        else snprintf(of_all, sizeof of_all, "%.1f%% of the all-core peak", pct(g5, peak_all));
        printf("5_omp:     %d threads on %d cores: %.2fx 4_simd (%s); %s%s\n", cores, cores, g5 / g4, fitted, of_all,
               omp_suspect ? " (suspect: a busy machine)" : "");
    }
    else if (cores == 1)
        printf("5_omp:     this machine has one core: there is no speedup to show (the rung ran on 1 thread)\n");
#ifndef _OPENMP
    printf("5_omp:     this build has no OpenMP (NO_OMP=1, or none found): 5_omp is 4_simd on one thread\n");
#endif

    /* ---- 8. the target and the answers ---- */
    printf("\n== the target: the top rung at least %.1fx OpenBLAS in this run (n = %d)\n", TARGET, n);
    if (isnan(g0))
        printf("OpenBLAS was not %s: no comparison\n", gemm_rung_available(blas) ? "timed" : "linked");
    else {
        double r1 = g4 / g0;
        printf("1 core:  4_simd %.1f GFLOP/s, OpenBLAS (%s) %.1f: %.3fx: %s\n", g4, gemm_openblas_corename(), g0, r1,
               r1 >= TARGET ? "met" : "not met");
        pw_csv_quantity(csv, "ratio_openblas", n, 1, "4_simd", r1);
        if (!isnan(g5) && !isnan(g0all)) {
            double ra = g5 / g0all;
            printf("%d cores: 5_omp %.1f GFLOP/s, OpenBLAS %.1f: %.3fx: %s\n", cores, g5, g0all, ra,
                   ra >= TARGET ? "met" : "not met");
            if (omp_suspect || blas_suspect)
                printf("  (suspect: the threads of %s did not run at the same time for most of the run: the machine "
                       "is busy; rerun on an idle one)\n", omp_suspect && blas_suspect ? "both" : omp_suspect ? "5_omp" : "OpenBLAS");
            pw_csv_quantity(csv, "ratio_openblas", n, cores, "5_omp", ra);
        } else if (cores == 1)
            printf("all cores: this machine has one core: the 1-core line is the whole comparison\n");
        if (pinned && *pinned)
            printf("(against the kernel OPENBLAS_CORETYPE=%s pins; run.sh measures OpenBLAS's own choice)\n", pinned);
    }
    /* ---- 9. the answers to the README's five predictions, from this run ---- */
    printf("\nthe answers to the README's predictions, from this run:\n");
    if (!isnan(g1) && !isnan(g2))
        printf("answer: 2_ikj over 1_naive at n = %d: %.1fx (the same flops, the loops swapped)\n", ns, g2 / g1);
    else
        printf("answer: not shown on this run: 1_naive and 2_ikj were not both timed (--rung?)\n");
    if (!isnan(g1) && !isnan(g4s))
        printf("answer: the top single-core rung, 4_simd, over 1_naive at n = %d: %.0fx\n", ns, g4s / g1);
    else
        printf("answer: not shown on this run: 1_naive and 4_simd were not both timed (--rung?)\n");
    if (!isnan(g4) && !isnan(g0))
        printf("answer: 4_simd against OpenBLAS (%s) on one core at n = %d: %.0f%%\n", gemm_openblas_corename(), n,
               100 * g4 / g0);
    else
        printf("answer: not shown on this run: %s\n", isnan(g0) ? "OpenBLAS was not linked or timed"
                                                             : "4_simd was not timed (--rung?)");
    /* A 5_omp point whose threads took turns measured the machine's load. */
    if (cores == 1)
        printf("answer: not shown on this run: this machine has one core, so 5_omp cannot beat 4_simd\n");
    else if (!omp_built)
        printf("answer: not shown on this run: this build has no OpenMP, so 5_omp ran on one thread\n");
    else if (isnan(g5) || isnan(g4))
        printf("answer: not shown on this run: 5_omp and 4_simd were not both timed (--rung?)\n");
    else
        printf("answer: %s5_omp on %d cores over 4_simd on one at n = %d: %.2fx%s\n",
               omp_suspect ? "not shown on this run: " : "", cores, n, g5 / g4,
               omp_suspect ? ", but 5_omp's threads did not run at the same time (see above)" : "");
    /* The top rung: 5_omp on all cores where its threads ran together, else 4_simd on one. */
    bool all_cores = !isnan(g5) && !omp_suspect && cores > 1 && omp_built;
    double top = all_cores ? g5 : g4;
    if (!isnan(g1) && !isnan(top))
        printf("answer: 8192^3 with 1_naive: %.1f min; with the top rung (%s on %d core%s): %.1f s\n",
               f8192 / (g1 * 1e9) / 60, all_cores ? "5_omp" : "4_simd", all_cores ? cores : 1,
               all_cores ? "s" : "", f8192 / (top * 1e9));
    else
        printf("answer: not shown on this run: 1_naive and the top rung were not both timed (--rung?)\n");
    pw_free(A); pw_free(B); pw_free(C);
    gemm_release_buffers();
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
