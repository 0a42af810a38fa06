/* exercises/09-tensor-cores/check_reg_tile.c: the checker of exercise 9.4.
 *
 * Two parts, on the SIMT emulator.
 *
 * 1. Correctness. Your reg_tile at m x n x k = 17 x 33 x 9, 65 x 31 x 47,
 *    129 x 127 x 130 and 1 x 1 x 1 (partial tiles on every edge, k not a
 *    multiple of any BK above 1), with buffers of exactly the matrices'
 *    size (a load past an edge is an out-of-bounds access, not a lucky read
 *    of the next row), then at the two sizes it is counted at (part 2).
 *    Every element must equal the reference exactly. Why exactly: the
 *    inputs are whole numbers in [-4, 4] without 0, so every product is a
 *    whole number of magnitude 1 to 16 and any partial sum of at most
 *    k <= 160 of them is a whole number of magnitude at most 16 x 160 =
 *    2560 < 2^24: fp32 holds every one exactly, so every addition and FMA
 *    is exact, in any order. A product left out or added twice moves its
 *    element by at least 1 (no product is 0). The launch must be the one
 *    reg_tile_tiles() describes: one launch, ceil(m/BM) ceil(n/BN) blocks
 *    of (BM/TM)(BN/TN) threads (the model's registers come from TM x TN).
 *
 * 2. The modelled speed bar (issue #19). Your kernel, the ladder's rung 3
 *    (gg_smem: 32 x 32 tiles, one output a thread, both operands from
 *    shared memory for every FMA) and rung 5 (gg_reg2d: 128 x 128 x 8,
 *    8 x 8 outputs a thread from registers) run at m = n = 128 with k = 128
 *    and k = 160; each count is m n (alpha k + beta) (the k loop, and what
 *    a block does once), so the two give alpha and beta and the counts at
 *    4096^3, exactly when the tiles divide 128 and the k step divides 32
 *    (the header's rules). common/gpu_model.h turns them into a time on
 *    the H100 SXM (common/gpus/h100-sxm.gpu), the chapter's default device:
 *    modelled, not measured. Modelled at 128 itself, rung 5's grid would be
 *    1 block on 132 SMs, and every time would be one block's latency.
 *    (Counted at 256 the times are the same to the digit, 8 times slower
 *    to count: the checker must run in a few seconds on a busy machine.)
 *    The bar:
 *        t_3 - t_yours >= 0.6 (t_3 - t_5)
 *    your kernel must win at least 60% of what rung 5 wins over rung 3.
 *    The 60% is the issue's; what it means on this model, at 4096^3 (t_3 =
 *    17.608 ms, t_5 = 6.835 ms; each line: BM x BN x BK, TM x TN, the
 *    modelled time and the share of rung 5's advantage it wins, from this
 *    checker run on variants of the solution):
 *      8 x 8 or 8 x 4 register tiles, in every block tile tried (128 x 128,
 *      64 x 128, 128 x 64, 64 x 64, BK 8 or 16): 6.8-7.6 ms, 93-100%;
 *      4 x 4 tiles: 64 x 64 x 8, 9.408 ms, 76% (passes); 128 x 128 x 8,
 *      1024 threads, one block an SM, latency-bound, 11.800 ms, 54%; and
 *      32 x 32 x 8, twice the global traffic of 64-wide tiles, 12.162 ms,
 *      51% (both fail);
 *      1D tiles: 64 x 64 x 8 of 8 x 1 (a column, the ladder's rung 4),
 *      10.461 ms, 66% (passes); of 1 x 8 (a row: 2-way conflicts on B),
 *      18.949 ms, -12% (fails);
 *      an operand's loads left on shared memory every FMA: 32 x 32 x 32 of
 *      1 x 1 (rung 3 itself) 0%; 8 x 8 accumulators each summed over p
 *      from shared memory, 36.492 ms, -175% (gcc; clang: 51.320 ms) (both fail).
 *    So every 8 x 8 tile passes with 33 points to spare and every kernel
 *    whose inner loop stays on shared memory fails by 60 or more; between
 *    them, a tile of 16 or fewer outputs a thread passes or fails by its
 *    block shape. The bar grades the time, not the idea: the checker then
 *    says what its counts show.
 *
 *    Shared loads per FMA: shared loads (per thread) / (m n k), the FMAs of
 *    one thread each: 2 for rung 3, (TM + TN) / (TM TN) for a register tile
 *    (0.25 for 8 x 8). Shared wavefronts per warp FMA: the 128-byte passes
 *    of shared memory (loads and stores, bank conflicts included) / (m n k
 *    / 32): what the model's l1 term charges; 2.06 for rung 3 (2 loads, one
 *    pass each, and its tiles' stores), 0.77 for rung 5 (its loads' 2- and
 *    4-way conflicts). Both from the counts at 128^3.
 *
 *    Registers: the model's occupancy needs ptxas's count, which this build
 *    cannot make for your file; your kernel is charged
 *        ceil(1.25 TM TN) + TM + TN + 28
 *    registers a thread (at most 255), fitted to ptxas's counts on sm_90 for
 *    rungs 3, 4 and 5 (31, 48, 124; common/gpus/registers.tsv): it gives
 *    32, 47 and 124. Rungs 3 and 5 get ptxas's own.
 */
#include "exercise.h"
#include "report_hint.h"
#include "reg_tile.h"
#include "gemm_gpu.cuh"
#include "gpu_model.h"
#include "gpu_regs.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const int sizes[][3] = {   /* m, n, k */
    { 17, 33, 9 }, { 65, 31, 47 }, { 129, 127, 130 }, { 1, 1, 1 },
};
enum { COUNT_N = 128, COUNT_DK = 32, MODEL_N = 4096 };
#define BAR 0.6   /* the share of rung 5's modelled advantage over rung 3 (issue #19; the top says why) */

static reg_tile_shape shape;
static int shape_threads;

/* ---- inputs and the reference ---------------------------------------------------------- */

/* Whole numbers in [-4, 4] without 0, from a fixed seed (xorshift64). */
static void fill_whole(float *x, size_t count, uint64_t seed)
{
    uint64_t s = 0x9e3779b97f4a7c15ull * (seed + 1) | 1;
    for (size_t i = 0; i < count; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        int v = (int)((s >> 32) % 8);   /* 0..7 */
        x[i] = (float)(v < 4 ? v - 4 : v - 3);   /* -4..-1, 1..4 */
    }
}

/* Element (i, j) of A B over p < kk (exact: whole numbers below 2^53). */
static double dot(const float *A, const float *B, int n, int k, int i, int j, int kk)
{
    double s = 0;
    for (int p = 0; p < kk; p++) s += (double)A[(size_t)i * k + p] * B[(size_t)p * n + j];
    return s;
}

/* ---- the contract's tiles ---------------------------------------------------------------- */

static int divides(int d, int of) { return d >= 1 && of % d == 0; }

/* 0, or 1 after explaining which rule of reg_tile.h the tiles break. */
static int check_shape(void)
{
    const reg_tile_shape *s = &shape;
    printf("  your tiles (reg_tile_tiles): BM x BN x BK = %d x %d x %d, TM x TN = %d x %d\n", s->bm, s->bn, s->bk,
           s->tm, s->tn);
    const char *why = NULL;
    if (!divides(s->bm, COUNT_N) || !divides(s->bn, COUNT_N) || s->bm < 16 || s->bn < 16)
        why = "BM and BN must each divide 128 (16, 32, 64 or 128)";
    else if (!divides(s->bk, 32))
        why = "BK must divide 32 (1, 2, 4, 8, 16 or 32)";
    else if (!divides(s->tm, s->bm) || !divides(s->tn, s->bn))
        why = "TM must divide BM and TN divide BN (each thread a whole TM x TN piece of the tile)";
    else {
        shape_threads = (s->bm / s->tm) * (s->bn / s->tn);
        if (shape_threads % 32 || shape_threads > 1024) why = "(BM/TM)(BN/TN), the threads of a block, must be a multiple of 32 and at most 1024";
    }
    if (why) {
        printf("wrong\nFAIL: these tiles break a rule of reg_tile.h: %s\n", why);
        return 1;
    }
    printf("  %d threads a block, %d accumulators each\n", shape_threads, s->tm * s->tn);
    return 0;
}

/* ---- one launch, judged ---------------------------------------------------------------- */

/* After a launch of yours at m x n x k: 0, or 1 after explaining (an error,
 * a report of the emulator's checks, a launch that is not the tiles'). */
static int judge_launch(int m, int n, int k, long reports_before)
{
    if (cudaGetLastError() != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        pw_ex_explain_error(pw_simt_last_error_message(),
                            "a load past the edge of A or B (or a store past C's): guard every one with the\n"
                            "  matrix's own bounds, row < m and t + p < k for A, t + p < k and col < n for B, strictly");
        return 1;
    }
    if (pw_simt_report_count() > reports_before) {
        printf("wrong\nFAIL: the emulator's checks found a problem (the result may look right by luck): %s\n",
               pw_simt_last_report());
        pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    const pw_simt_counters *c = pw_simt_total_counters();
    long long want_blocks = (long long)((m + shape.bm - 1) / shape.bm) * ((n + shape.bn - 1) / shape.bn);
    if (c->launches != 1) {
        printf("wrong\nFAIL: reg_tile_launch made %lld launches at %d x %d x %d: the contract is one launch of reg_tile\n",
               c->launches, m, n, k);
        return 1;
    }
    if (c->threads_per_block != shape_threads || c->blocks != want_blocks) {
        printf("wrong\nFAIL: the launch at %d x %d x %d ran %lld blocks of %lld threads; your tiles make ceil(m/BM) "
               "ceil(n/BN) = %lld blocks of (BM/TM)(BN/TN) = %d\n", m, n, k, c->blocks, c->threads_per_block,
               want_blocks, shape_threads);
        printf("  reg_tile_tiles() must return the tiles the kernel and the launch use\n");
        return 1;
    }
    return 0;
}

/* got against the exact product: 0, or 1 after explaining the first bad element. */
static int compare(const float *A, const float *B, const float *got, int m, int n, int k)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double want = dot(A, B, n, k, i, j, k), g = got[(size_t)i * n + j];
            if (g == want) continue;
            printf("wrong\nFAIL: C[%d][%d] = %.9g, want %.9g (m x n x k = %d x %d x %d; exact: whole-number inputs)\n",
                   i, j, g, want, m, n, k);
            int full = k / shape.bk * shape.bk;   /* the k of the whole BK steps */
            if (isnan(g))
                printf("  never written (C starts as NaN): does the grid cover C, ceil(n/BN) x ceil(m/BM) blocks,\n"
                       "  and does each thread store all its TM x TN outputs that are inside C?\n");
            else if (full < k && g == dot(A, B, n, k, i, j, full))
                printf("  that is the sum over the first %d of the k = %d products: the last step of k, %d wide\n"
                       "  (k %% BK), was skipped. Step t = 0, BK, ... while t < k, and load zeros past column k of A\n"
                       "  and row k of B\n", full, k, k - full);
            else
                printf("  are the loads past the edges zeros, the tiles complete before the products (a barrier),\n"
                       "  and is acc[i][j] the sum of a[i] b[j], a[i] from row tr TM + i of A, b[j] from column tc TN + j of B?\n");
            return 1;
        }
    return 0;
}

/* Your kernel at m x n x k on fresh whole-number inputs: 0, or 1 after
 * explaining. *counts: the launch's counters, when not NULL. */
static int try_yours(int m, int n, int k, pw_simt_counters *counts)
{
    float *A = pw_alloc_floats((size_t)m * k), *B = pw_alloc_floats((size_t)k * n), *got = pw_alloc_floats((size_t)m * n);
    fill_whole(A, (size_t)m * k, 1000003u * m + k);
    fill_whole(B, (size_t)k * n, 1000033u * k + n);
    float *dA, *dB, *dC;
    cudaMalloc((void **)&dA, (size_t)m * k * sizeof(float));   /* exactly the matrices: a load past one is caught */
    cudaMalloc((void **)&dB, (size_t)k * n * sizeof(float));
    cudaMalloc((void **)&dC, (size_t)m * n * sizeof(float));
    cudaMemcpy(dA, A, (size_t)m * k * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, (size_t)k * n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(dC, 0xFF, (size_t)m * n * sizeof(float));   /* NaN: an element never written shows */
    pw_simt_counters_reset();
    long reports_before = pw_simt_report_count();
    reg_tile_launch(dA, dB, dC, m, n, k);
    cudaDeviceSynchronize();
    int bad = judge_launch(m, n, k, reports_before);
    if (!bad) {
        if (counts) *counts = *pw_simt_total_counters();
        cudaMemcpy(got, dC, (size_t)m * n * sizeof(float), cudaMemcpyDeviceToHost);
        bad = compare(A, B, got, m, n, k);
    }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    pw_free(A);
    pw_free(B);
    pw_free(got);
    return bad;
}

/* A rung of the ladder at m x n x k (its results are the chapter's to check: tests/ch09_gemm.sh). */
static void run_rung(gg_rung r, int m, int n, int k, pw_simt_counters *counts)
{
    float *dA, *dB, *dC;
    cudaMalloc((void **)&dA, (size_t)m * k * sizeof(float));
    cudaMalloc((void **)&dB, (size_t)k * n * sizeof(float));
    cudaMalloc((void **)&dC, (size_t)m * n * sizeof(float));
    cudaMemset(dA, 0, (size_t)m * k * sizeof(float));
    cudaMemset(dB, 0, (size_t)k * n * sizeof(float));
    pw_simt_counters_reset();
    if (gg_launch(r, GG_F32, m, n, k, dA, dB, dC) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
        fprintf(stderr, "check_reg_tile: the ladder's %s failed to run: %s\n", gg_rung_name(r), pw_simt_last_error_message());
        exit(PW_EXIT_WRONG);
    }
    *counts = *pw_simt_total_counters();
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
}

/* ---- counts, scaled, and the model ------------------------------------------------------- */

enum { NQ = 10 };
typedef struct { double q[NQ]; } counts;   /* the fields below, as doubles */
enum { Q_GLD, Q_GST, Q_SWF, Q_INSTR, Q_LINES, Q_L2LD, Q_ROUNDS, Q_WARPS, Q_BLOCKS, Q_BARRIERS };

static counts counts_of(const pw_simt_counters *c)
{
    counts k;
    k.q[Q_GLD] = (double)c->global_load_sectors;
    k.q[Q_GST] = (double)c->global_store_sectors;
    k.q[Q_SWF] = (double)c->shared_wavefronts;
    /* the warp instructions the model issues besides the FFMAs: memory requests, collectives, mma_sync */
    k.q[Q_INSTR] = (double)(c->global_load_requests + c->global_store_requests + c->shared_requests + c->collectives +
                            c->mma_ops);
    k.q[Q_LINES] = (double)(c->global_load_lines + c->global_store_lines);
    k.q[Q_L2LD] = (double)c->global_load_l2_sectors;
    k.q[Q_ROUNDS] = (double)c->load_rounds;
    k.q[Q_WARPS] = (double)c->warps;
    k.q[Q_BLOCKS] = (double)c->blocks;
    k.q[Q_BARRIERS] = (double)c->barriers;
    return k;
}

/* The counts at N^3 from those at n x n x n (c1) and n x n x (n + dk) (c2):
 * each is n^2 (alpha k + beta), so alpha = (c2 - c1) / (n^2 dk), beta =
 * c1 / n^2 - alpha n, and the count at N^3 is N^2 (alpha N + beta). */
static counts scale(const counts *c1, const counts *c2, double n, double dk, double N)
{
    counts out;
    for (int q = 0; q < NQ; q++) {
        double alpha = (c2->q[q] - c1->q[q]) / (n * n * dk), beta = c1->q[q] / (n * n) - alpha * n;
        out.q[q] = N * N * (alpha * N + beta);
    }
    return out;
}

/* One kernel's line of the table. */
typedef struct {
    const char *label;
    char tiles[48];
    pw_simt_counters at_n;        /* the counters at n^3 (per-FMA figures) */
    pw_gpu_work w;
    pw_gpu_time t;
    double loads_per_fma, wavefronts_per_wfma;
} modelled;

static int estimated_regs(int tm, int tn)
{
    int r = (int)ceil(1.25 * tm * tn) + tm + tn + 28;
    return r > 255 ? 255 : r;
}

static void model_it(modelled *x, const pw_gpu *g, const pw_simt_counters *c1, const pw_simt_counters *c2,
                     const char *kernel, int regs)
{
    double n = COUNT_N, N = MODEL_N, fmas = n * n * n;
    counts a = counts_of(c1), b = counts_of(c2), s = scale(&a, &b, n, COUNT_DK, N);
    x->at_n = *c1;
    x->loads_per_fma = (double)c1->shared_loads / fmas;
    x->wavefronts_per_wfma = (double)c1->shared_wavefronts / (fmas / 32);
    pw_gpu_work *w = &x->w;
    memset(w, 0, sizeof *w);
    w->flops = 2 * N * N * N;
    w->warp_instructions = s.q[Q_INSTR];
    w->global_sectors = s.q[Q_GLD] + s.q[Q_GST];
    w->global_lines = s.q[Q_LINES];
    w->l2_sectors = s.q[Q_L2LD] + s.q[Q_GST];
    w->global_load_bytes = 32 * s.q[Q_L2LD];
    w->shared_wavefronts = s.q[Q_SWF];
    w->dram_bytes = 12 * N * N;   /* A and B read once, C written once, 4 bytes each */
    w->blocks = s.q[Q_BLOCKS];
    w->rounds = s.q[Q_WARPS] > 0 ? s.q[Q_ROUNDS] / s.q[Q_WARPS] : 0;
    w->barriers = s.q[Q_BARRIERS];
    int smem = (int)(c1->shared_static_bytes + c1->shared_dynamic_bytes);
    if (kernel) pw_gpu_launch_of(g->arch, kernel, (int)c1->threads_per_block, smem, &w->launch, NULL, 0);
    else {
        w->launch.threads_per_block = (int)c1->threads_per_block;
        w->launch.smem_per_block = smem;
        w->launch.regs_per_thread = regs;
        w->launch.regs_estimated = 1;
    }
    x->t = pw_gpu_model(g, w);
}

static void print_row(const modelled *x)
{
    printf("  %-16s %-21s %7d %4d%s %8.3f %9.3f %12.3f  %-8s %d\n", x->label, x->tiles, x->w.launch.threads_per_block,
           x->w.launch.regs_per_thread, x->w.launch.regs_estimated ? "~" : " ", x->loads_per_fma,
           x->wavefronts_per_wfma, 1e3 * x->t.t_s, x->t.bound, x->t.occ.blocks_per_sm);
}

/* Why a kernel missed the bar, from its counts: each cause the counts show, or, when none
 * stands out, the model's terms beside rung 5's. */
static void explain_miss(const modelled *y, const modelled *r3, const modelled *r5)
{
    double tiled = (double)(shape.tm + shape.tn) / (shape.tm * shape.tn);   /* what registers would give */
    int said = 0;
    if (y->loads_per_fma > 1.5 * tiled + 0.05) {
        printf("  your inner loop makes %.2f shared loads per FMA where your %d x %d register tile needs (TM + TN) /\n"
               "  (TM TN) = %.2f (rung 3: %.2f, rung 5: %.2f): it reads its operands from shared memory FMA by FMA.\n"
               "  Per step p, load TM values of A into a[] and TN of B into b[] once, then do the TM x TN FMAs\n"
               "  acc[i][j] += a[i] * b[j] from those registers\n", y->loads_per_fma, shape.tm, shape.tn, tiled,
               r3->loads_per_fma, r5->loads_per_fma);
        said = 1;
    } else if (shape.tm == 1 && shape.tn == 1) {
        printf("  1 x 1 is no register tile: %.2f shared loads per FMA, each value of A and of B serving one FMA;\n"
               "  a TM x TN tile makes (TM + TN) / (TM TN) (8 x 8: 0.25, rung 5: %.2f)\n", y->loads_per_fma,
               r5->loads_per_fma);
        said = 1;
    } else if (shape.tm == 1 || shape.tn == 1) {
        printf("  %d x %d is a 1D tile: %.2f shared loads per FMA ((TM + TN) / (TM TN)), each value of %s serving one\n"
               "  FMA only; a 2D tile reuses both (8 x 8: 0.25, rung 5: %.2f)\n", shape.tm, shape.tn, y->loads_per_fma,
               shape.tm == 1 ? "B" : "A", r5->loads_per_fma);
        said = 1;
    } else if (y->loads_per_fma > 1.5 * r5->loads_per_fma) {
        printf("  your %d x %d tile needs (TM + TN) / (TM TN) = %.2f shared loads per FMA, %.1fx rung 5's %.2f: more\n"
               "  outputs a thread, fewer loads per FMA\n", shape.tm, shape.tn, y->loads_per_fma,
               y->loads_per_fma / r5->loads_per_fma, r5->loads_per_fma);
        said = 1;
    }
    double ways = y->at_n.shared_requests > 0 ? (double)y->at_n.shared_wavefronts / y->at_n.shared_requests : 0;
    double ways5 = r5->at_n.shared_requests > 0 ? (double)r5->at_n.shared_wavefronts / r5->at_n.shared_requests : 0;
    if (ways > 1.5) {
        printf("  %sbank conflicts: %.1f wavefronts a shared request on average (1 is conflict-free; rung 5's:\n"
               "  %.1f), %.2f wavefronts per warp FMA against rung 5's %.2f\n", said ? "and " : "", ways, ways5,
               y->wavefronts_per_wfma, r5->wavefronts_per_wfma);
        said = 1;
    }
    if (y->t.occ.blocks_per_sm == 1 && !strcmp(y->t.bound, "latency")) {
        printf("  %sone block of %d threads fills an SM (limit: %s): nothing runs while its warps wait for\n"
               "  their loads (bound: latency). Smaller blocks, 256 threads or fewer, let the SM overlap them\n",
               said ? "and " : "", y->w.launch.threads_per_block, y->t.occ.limit);
        said = 1;
    }
    double fmas = (double)COUNT_N * COUNT_N * COUNT_N;
    double gy = 1e3 * y->at_n.global_load_sectors / fmas, g5 = 1e3 * r5->at_n.global_load_sectors / fmas;
    if (gy > 1.5 * g5) {
        printf("  %sglobal traffic: %.1f load sectors per 1000 FMAs against rung 5's %.1f: a BM x BN block loads\n"
               "  each element of A once per column of blocks and each of B once per row of blocks; wider\n"
               "  tiles (64 or 128) load less\n", said ? "and " : "", gy, g5);
        said = 1;
    }
    if (!said)
        printf("  the model's terms (ms), yours against rung 5's: l1 %.3f / %.3f, latency %.3f / %.3f, issue %.3f /\n"
               "  %.3f; more outputs a thread (8 x 8) cut the l1 and issue terms\n", 1e3 * y->t.t_l1, 1e3 * r5->t.t_l1,
               1e3 * y->t.t_latency, 1e3 * r5->t.t_latency, 1e3 * y->t.t_issue, 1e3 * r5->t.t_issue);
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    printf("exercise 9.4: register tiles on the emulator: %zu odd sizes, then the modelled speed bar\n",
           sizeof sizes / sizeof *sizes);
    shape = reg_tile_tiles();
    if (check_shape()) {
        printf("exercise 9.4 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }

    /* 1. correctness */
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++) {
        printf("  %3d x %3d x %-3d (m x n x k)  ", sizes[s][0], sizes[s][1], sizes[s][2]);
        bad = try_yours(sizes[s][0], sizes[s][1], sizes[s][2], NULL);
        if (!bad) printf("ok (exact)\n");
    }
    /* ... and at the two sizes the model counts */
    pw_simt_counters y1, y2;
    for (int r = 0; r < 2 && !bad; r++) {
        int k = COUNT_N + r * COUNT_DK;
        printf("  %3d x %3d x %-3d (m x n x k)  ", COUNT_N, COUNT_N, k);
        bad = try_yours(COUNT_N, COUNT_N, k, r ? &y2 : &y1);
        if (!bad) printf("ok (exact; counted for the model)\n");
    }
    if (bad) {
        printf("exercise 9.4 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }

    /* 2. the modelled speed bar */
    pw_gpu g;
    pw_gpu_find_or_exit("check_reg_tile", PW_GPU_DEFAULT, &g);
    pw_simt_counters c1, c2;
    modelled r3 = { .label = "3_smem (ladder)" }, r5 = { .label = "5_reg2d (ladder)" }, you = { .label = "yours" };
    snprintf(r3.tiles, sizeof r3.tiles, "32 x 32 x 32, 1 x 1");
    snprintf(r5.tiles, sizeof r5.tiles, "128 x 128 x 8, 8 x 8");
    snprintf(you.tiles, sizeof you.tiles, "%d x %d x %d, %d x %d", shape.bm, shape.bn, shape.bk, shape.tm, shape.tn);
    run_rung(GG_SMEM, COUNT_N, COUNT_N, COUNT_N, &c1);
    run_rung(GG_SMEM, COUNT_N, COUNT_N, COUNT_N + COUNT_DK, &c2);
    model_it(&r3, &g, &c1, &c2, gg_launch_shape(GG_SMEM, GG_F32, COUNT_N, COUNT_N, COUNT_N).kernel, 0);
    run_rung(GG_REG2D, COUNT_N, COUNT_N, COUNT_N, &c1);
    run_rung(GG_REG2D, COUNT_N, COUNT_N, COUNT_N + COUNT_DK, &c2);
    model_it(&r5, &g, &c1, &c2, gg_launch_shape(GG_REG2D, GG_F32, COUNT_N, COUNT_N, COUNT_N).kernel, 0);
    model_it(&you, &g, &y1, &y2, NULL, estimated_regs(shape.tm, shape.tn));

    printf("\n  modelled on the %s at %d^3 (common/gpu_model.h; modelled, not measured), from the counts at\n"
           "  %d x %d x %d and x %d scaled to %d:\n", g.name, MODEL_N, COUNT_N, COUNT_N, COUNT_N, COUNT_N + COUNT_DK,
           MODEL_N);
    printf("  %-16s %-21s %7s %5s %8s %9s %12s  %-8s %s\n", "kernel", "BMxBNxBK, TMxTN", "threads", "regs",
           "sh ld/FMA", "wavef/wFMA", "modelled ms", "bound", "blk/SM");
    print_row(&r3);
    print_row(&you);
    print_row(&r5);
    printf("  sh ld/FMA: shared loads per FMA of a thread; wavef/wFMA: shared-memory wavefronts (bank conflicts\n"
           "  included) per warp FMA, both counted at %d^3; regs: ptxas's (~: the checker's estimate from TM x TN);\n"
           "  blk/SM: resident blocks an SM (CUDA's occupancy calculation)\n", COUNT_N);

    double t3 = r3.t.t_s, t5 = r5.t.t_s, ty = you.t.t_s;
    double limit = t3 - BAR * (t3 - t5), share = (t3 - ty) / (t3 - t5);
    printf("  the bar: t_3 - t_yours >= %.0f%% of t_3 - t_5 = %.3f ms: yours at most %.3f ms (modelled)\n", 100 * BAR,
           1e3 * (t3 - t5), 1e3 * limit);
    if (!(t3 > t5) || isnan(t3) || isnan(t5)) {   /* the model or the ladder changed under the checker */
        fprintf(stderr, "check_reg_tile: the model gives rung 5 %.3f ms and rung 3 %.3f ms: no advantage to share\n",
                1e3 * t5, 1e3 * t3);
        return PW_EXIT_WRONG;
    }
    if (isnan(ty)) {
        printf("wrong\nFAIL: the model cannot run your launch on the %s (%s): %d threads, %d bytes of shared memory,\n"
               "  %d registers a thread\n", g.name, you.t.bound, you.w.launch.threads_per_block,
               you.w.launch.smem_per_block, you.w.launch.regs_per_thread);
        printf("exercise 9.4 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    printf("  yours: %.3f ms modelled, %.0f%% of rung 5's advantage over rung 3\n", 1e3 * ty, 100 * share);
    if (ty > limit) {
        printf("wrong\nFAIL: modelled at %.3f ms on the %s, %.0f%% of rung 5's advantage over rung 3 (the bar: %.0f%%, at "
               "most %.3f ms); shared wavefronts per warp FMA: yours %.2f, rung 3 %.2f, rung 5 %.2f\n", 1e3 * ty, g.name,
               100 * share, 100 * BAR, 1e3 * limit, you.wavefronts_per_wfma, r3.wavefronts_per_wfma,
               r5.wavefronts_per_wfma);
        explain_miss(&you, &r3, &r5);
        printf("exercise 9.4 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every product exact; modelled %.3f ms on the %s, %.0f%% of rung 5's advantage over rung 3 "
                      "(the bar: %.0f%%)", 1e3 * ty, g.name, 100 * share, 100 * BAR);
}
