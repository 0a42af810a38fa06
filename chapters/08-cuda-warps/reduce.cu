/* chapters/08-cuda-warps/reduce.cu: the reduction ladder, six kernels that
 * sum an array, each fixing what slowed the one before.
 *
 *   0 interleaved        neighbours add: most lanes of every warp idle (divergence)
 *   1 strided_index      busy lanes first, but on every 2^k-th word (bank conflicts)
 *   2 sequential         first half adds second half: no conflict, no idle lane in busy warps
 *   3 first_add          each thread adds two elements as it loads: half the blocks
 *   4 warp_shuffle       the last 64 sums in registers by __shfl_down_sync: fewer barriers
 *   5 many_per_thread    a fixed grid, many elements per thread in a register
 *
 *   ./build/ch08/reduce                  on the emulator: counts per rung, and the
 *                                        time they would take on a GPU, modelled
 *   ./build/ch08/reduce --device rtx-a6000 --model-n 64M
 *   ./build/gpu/ch08/reduce -n 64M --model-csv results/08-cuda-warps/reduce.csv
 *                                        on a GPU: GB/s and % of a copy kernel's, and
 *                                        the model's time beside each (from the
 *                                        emulator's CSV, made with --model-n 64M)
 *
 * Every rung is first checked against a CPU sum, on odd sizes and several
 * block sizes. What to expect on the emulator: rung 0 has a SIMT efficiency
 * near 0.25 and rung 1 conflicts up to 8-way; rungs 2-5 neither, and each
 * step needs fewer barriers and shared-memory accesses per element.
 *
 * The model (common/gpu_model.h) at --model-n (default 2^22): the counts of
 * each rung's launch at the counted n, scaled to the modelled n. Every block
 * of a rung does the same work when n is a whole number of blocks, so a
 * count is blocks x one block's count: scaled by N / n, exactly, when the
 * blocks at both sizes do the same work. Rung 5's grid stops growing at 2048
 * blocks (n = 2^22 in blocks of 256), after which its threads add more
 * elements each: its blocks at n and N then differ, and a launch of 4 blocks
 * doing N's per-block work is counted instead (x blocks / 4, exact too). The
 * table says which, and whether each is exact.
 */
#include "simt_driver.h"
#include "warps.cuh"
#include "model.h"

typedef struct {
    const char *name;
    int first_add;              /* elements per thread added at load: 1 or 2 */
    int many;                   /* rung 5: a fixed grid, many per thread */
    const char *kernel;         /* as the launch names it (ptxas's table) */
} rung;

static const rung rungs[] = {
    { "interleaved", 1, 0, "reduce_interleaved" },   { "strided_index", 1, 0, "reduce_strided_index" },
    { "sequential", 1, 0, "reduce_sequential" },     { "first_add", 2, 0, "reduce_first_add" },
    { "warp_shuffle", 2, 0, "reduce_warp_shuffle" }, { "many_per_thread", 1, 1, "reduce_many" },
};
enum { NRUNGS = 6 };
static const long long MANY_GRID = 2048;   /* rung 5's largest grid */

/* Rung 5's grid: enough blocks to fill a GPU (2048 blocks of 256 keep
 * every SM of an H100 busy), at least 8 elements per thread. */
static int grid_of(int r, long long n, int block)
{
    if (rungs[r].many) {
        long long g = (long long)pw_ceil_div((size_t)n, (size_t)block * 8);
        return (int)(g < 1 ? 1 : g > MANY_GRID ? MANY_GRID : g);
    }
    long long g = (long long)pw_ceil_div((size_t)n, (size_t)block * rungs[r].first_add);
    return (int)(g < 1 ? 1 : g);
}

/* Elements each thread reads, n over a grid of `grid` blocks: rungs 0-4 their
 * first_add; rung 5 n / (grid x block) (a fraction when they differ). */
static double per_thread(int r, long long n, int grid, int block)
{
    return rungs[r].many ? (double)n / ((double)grid * block) : rungs[r].first_add;
}

typedef struct {
    int r, n, block, grid;
    const float *d_in;
    float *d_partial;
} launch_ctx;

static void launch(void *p)
{
    launch_ctx *c = (launch_ctx *)p;
    size_t sh = (size_t)(rungs[c->r].many ? 32 : c->block) * sizeof(float);
    switch (c->r) {
    case 0: reduce_interleaved<<<c->grid, c->block, sh>>>(c->d_in, c->d_partial, c->n); break;
    case 1: reduce_strided_index<<<c->grid, c->block, sh>>>(c->d_in, c->d_partial, c->n); break;
    case 2: reduce_sequential<<<c->grid, c->block, sh>>>(c->d_in, c->d_partial, c->n); break;
    case 3: reduce_first_add<<<c->grid, c->block, sh>>>(c->d_in, c->d_partial, c->n); break;
    case 4: reduce_warp_shuffle<<<c->grid, c->block, sh>>>(c->d_in, c->d_partial, c->n); break;
    default: reduce_many<<<c->grid, c->block, sh>>>(c->d_in, c->d_partial, c->n); break;
    }
}

/* Run rung r on the first n elements of d_in over `grid` blocks; the
 * partials added on the host. */
static double run_grid(int r, const float *d_in, float *d_partial, float *h_partial, int n, int block, int grid)
{
    launch_ctx c = { r, n, block, grid, d_in, d_partial };
    launch(&c);
    pw_cuda_sync_check();
    CUDA_CHECK(cudaMemcpy(h_partial, d_partial, (size_t)c.grid * sizeof(float), cudaMemcpyDeviceToHost));
    double s = 0;
    for (int b = 0; b < c.grid; b++) s += h_partial[b];
    return s;
}

static double run_sum(int r, const float *d_in, float *d_partial, float *h_partial, int n, int block)
{
    return run_grid(r, d_in, d_partial, h_partial, n, block, grid_of(r, n, block));
}

/* The tolerance: a float sum rounds once per addition, by at most 2^-24 of
 * the running value, and a value passes through at most `depth` additions
 * (the elements a thread adds in a register, then log2(block) tree levels):
 * |error| <= depth * 2^-24 * sum |x|. The host sum is in double (exact
 * enough to be the reference). */
static double tolerance(int r, long long n, int block, int grid, double abs_sum)
{
    double depth = ceil(per_thread(r, n, grid, block)) + log2((double)block) + 1;
    return depth * ldexp(1.0, -24) * abs_sum;
}

static int verify(const float *h_in, const float *d_in, float *d_partial, float *h_partial, long long nmax,
                  bool tiny)
{
    static const long long sizes[] = { 1, 31, 1000, 4099, 65537 };
    size_t nsizes = sizeof sizes / sizeof sizes[0] - (tiny ? 1 : 0);   /* --tiny: quick */
    static const int blocks[] = { 64, 128, 256, 512 };
    int bad = 0, tried = 0;
    for (int r = 0; r < NRUNGS; r++)
        for (size_t s = 0; s < nsizes; s++) {
            long long n = sizes[s] < nmax ? sizes[s] : nmax;
            double ref = 0, abs_sum = 0;
            for (long long i = 0; i < n; i++) { ref += h_in[i]; abs_sum += fabs(h_in[i]); }
            for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
                char what[96];
                snprintf(what, sizeof what, "reduce %s n=%lld block=%d", rungs[r].name, n, blocks[b]);
                double got = run_sum(r, d_in, d_partial, h_partial, (int)n, blocks[b]);
                bad |= pw_check_scalar(what, got, ref, tolerance(r, n, blocks[b], grid_of(r, n, blocks[b]), abs_sum), 0);
                tried++;
            }
        }
    if (!bad) printf("all variants match the CPU sum (%d runs: 6 rungs x sizes 1, 31, 1000, 4099%s x blocks "
                     "64, 128, 256, 512)\n\n", tried, tiny ? "" : ", 65537");
    return bad;
}

/* What the model is given besides the counts, for n elements over `grid`
 * blocks: the adds (n - 1: any sum of n numbers takes that many; the kernel
 * does n - grid of them, the host the last grid - 1), and the compulsory
 * DRAM traffic (the input read once, the grid's partial sums written once). */
static double flops_of(long long n) { return (double)n - 1; }
static double dram_of(long long n, double grid) { return 4.0 * (double)n + 4.0 * grid; }

#if PW_SIMT_EMULATED
/* ---- counting, and the counts at a modelled size ---------------------------------------- */

/* Every block of the launch does the same work: n is grid x block x per_thread. */
static bool whole(int r, long long n, int grid, int block)
{
    double e = per_thread(r, n, grid, block);
    return e == floor(e) && (double)grid * block * e == (double)n;
}

static const float *g_in;        /* the device input, its host copy, and the partials: for counts_at's launches */
static const float *g_h_in;
static float *g_partial, *g_h_partial;
static long long g_in_len;

typedef struct {
    mc_counts c;                 /* the counts at the modelled size */
    bool exact;                  /* every block at both sizes did the same work */
    char how[32];                /* where they came from: "n x 4" or "4 blk x 512" */
    long long from_n;            /* the n of the launch they were counted at */
} scaled;

/* The counts of rung r over N elements in blocks of b on `grid` blocks (0:
 * the rung's own grid), from the launch counted at n (cn, in blocks of bn;
 * NULL: none) when its blocks did the same work as N's, else from a launch
 * of up to 4 blocks doing N's per-block work (checked against the CPU sum
 * first, as every launch is). 0 on success, 1 when that launch was wrong. */
static int counts_at(int r, long long N, int b, int grid, const mc_counts *cn, long long n, int bn, scaled *out)
{
    int G = grid > 0 ? grid : grid_of(r, N, b);
    double e = per_thread(r, N, G, b);
    out->exact = whole(r, N, G, b);
    if (cn && bn == b) {
        int gn = grid_of(r, n, b);
        if (whole(r, n, gn, b) && per_thread(r, n, gn, b) == e) {
            out->c = mc_scale(cn, (double)G / gn);
            out->from_n = n;
            snprintf(out->how, sizeof out->how, "n x %g", (double)G / gn);
            return 0;
        }
    }
    int gs = G < 4 ? G : 4;
    long long ns = (long long)gs * b * (long long)ceil(e);
    if (ns > g_in_len) {   /* main allocated enough for every modelled size; this is a bug */
        fprintf(stderr, "reduce: %lld elements wanted for a count, %lld allocated\n", ns, g_in_len);
        return 1;
    }
    double ref = 0, abs_sum = 0;
    for (long long i = 0; i < ns; i++) { ref += g_h_in[i]; abs_sum += fabs(g_h_in[i]); }
    double got = run_grid(r, g_in, g_partial, g_h_partial, (int)ns, b, gs);
    out->c = mc_read();
    char what[96];
    snprintf(what, sizeof what, "reduce %s n=%lld block=%d grid=%d", rungs[r].name, ns, b, gs);
    if (pw_check_scalar(what, got, ref, tolerance(r, ns, b, gs, abs_sum), 0)) return 1;
    out->c = mc_scale(&out->c, (double)G / gs);
    out->from_n = ns;
    snprintf(out->how, sizeof out->how, "%d blk x %g", gs, (double)G / gs);
    return 0;
}

/* The elements counts_at's own launches need at N: 4 blocks' worth. */
static long long count_len(long long N, int b)
{
    long long most = 0;
    for (int r = 0; r < NRUNGS; r++) {
        int G = grid_of(r, N, b), gs = G < 4 ? G : 4;
        long long ns = (long long)gs * b * (long long)ceil(per_thread(r, N, G, b));
        if (ns > most) most = ns;
    }
    return most;
}

/* ---- the model at a size, on a device ---------------------------------------------------- */

typedef struct {
    scaled s;
    pw_gpu_work w;
    pw_gpu_time t;
    double gbs;                  /* 4 n bytes / the modelled time */
} modelled;

/* The model's table at N on dev, its CSV rows, and the answers. counted: the
 * launches counted at n in blocks of b. 0, or 1 when a count was wrong. */
static int report_model(const pw_gpu *dev, long long N, int b, const mc_counts *counted, long long n, bool table,
                        pw_csv *csv, modelled *m)
{
    bool all_exact = true;
    int estimated = 0;
    char note[160] = "", any_note[160] = "";
    for (int r = 0; r < NRUNGS; r++) {
        if (counts_at(r, N, b, 0, &counted[r], n, b, &m[r].s)) return 1;
        pw_regs_source src = PW_REGS_ESTIMATE;
        m[r].w = mc_work(&m[r].s.c, flops_of(N), dram_of(N, m[r].s.c.v[MC_BLOCKS]), dev, &src, note, sizeof note);
        m[r].t = pw_gpu_model(dev, &m[r].w);
        m[r].gbs = 4.0 * (double)N / m[r].t.t_s * 1e-9;
        if (!m[r].s.exact) all_exact = false;
        if (m[r].w.launch.regs_estimated) estimated = 1;
        else if (!any_note[0]) snprintf(any_note, sizeof any_note, "%s", note);
        mc_csv_counts(csv, rungs[r].name, N, m[r].s.from_n, &m[r].s.c);
        mc_csv_modelled(csv, rungs[r].name, N, dev, &m[r].w, &m[r].t, 4.0 * (double)N);
    }
    if (!table) return 0;
    printf("\n== modelled, not measured: the %s (%s, %d SMs, %.0f GB/s DRAM) at n = %lld, blocks of %d\n", dev->name,
           dev->arch, dev->sms, dev->dram_gbs, N, b);
    printf("   each rung's counts at n = %lld, scaled to n = %lld (the last column); %s\n"
           "   the model: common/gpu_model.h (throughput terms, occupancy, waves, Little's law)\n", n, N,
           all_exact ? "exact: every block at both\n   sizes does the same work."
                     : "NOT exact: a size is not a whole\n   number of blocks (a partial block is counted as a full one).");
    printf("%-16s %10s %8s %6s %-8s %-15s %6s %-9s %6s %7s  %s\n", "rung", "time us", "GB/s", "%DRAM", "bound",
           "next (x less)", "blk/SM", "limit", "waves", "x prev", "counts");
    for (int r = 0; r < NRUNGS; r++) {
        const pw_gpu_time *t = &m[r].t;
        char nx[32], xp[16] = "-";
        if (r > 0) snprintf(xp, sizeof xp, "%.2fx", m[r - 1].t.t_s / t->t_s);
        printf("%-16s %10.2f %8.1f %5.1f%% %-8s %-15s %6d %-9s %6.0f %7s  %s\n", rungs[r].name, 1e6 * t->t_s,
               m[r].gbs, 100 * m[r].gbs / dev->dram_gbs, t->bound, mc_next(t, nx, sizeof nx), t->occ.blocks_per_sm,
               t->occ.limit, t->waves, xp, m[r].s.how);
    }
    char foot[256];
    printf("time us, GB/s: modelled (GB/s: the 4n bytes read / the modelled time; %%DRAM: of the device's %.0f GB/s);\n"
           "bound: the largest term (fp32, issue, l1, latency, l2, dram); next: the runner-up and how many times\n"
           "shorter it is; blk/SM, limit: CUDA's occupancy calculation and what limits it; waves: the grid over\n"
           "(blk/SM x %d SMs); x prev: the time of the rung above over this one's; counts: n x f: the launch\n"
           "counted at n, times f (its blocks at N over those at n); 4 blk x f: a launch of 4 blocks that each do\n"
           "what a block at N does, times f. flops: n - 1 adds; DRAM: the input once, the partial sums once.\n"
           "registers: %s\n", dev->dram_gbs, dev->sms, mc_regs_footer(estimated, any_note, foot, sizeof foot));
    return 0;
}

/* The answers from the model's table: the biggest step, what binds the last rung. */
static void model_answers(const pw_gpu *dev, long long N, const modelled *m)
{
    int step = 1;
    for (int r = 2; r < NRUNGS; r++)
        if (m[r - 1].t.t_s / m[r].t.t_s > m[step - 1].t.t_s / m[step].t.t_s) step = r;
    const pw_gpu_time *last = &m[NRUNGS - 1].t;
    printf("\nanswer: modelled on the %s at n = %lld, the biggest step is %s -> %s,\n"
           "  %.2fx (%.2f -> %.2f us; %s-bound -> %s-bound)\n", dev->name, N, rungs[step - 1].name, rungs[step].name,
           m[step - 1].t.t_s / m[step].t.t_s, 1e6 * m[step - 1].t.t_s, 1e6 * m[step].t.t_s, m[step - 1].t.bound,
           m[step].t.bound);
    printf("answer: the last rung, %s, is %s-bound in the model: %.2f us, %.1f GB/s modelled\n"
           "  (%.1f%% of the %.0f GB/s DRAM peak); the runner-up term is %s at %.2f us\n", rungs[NRUNGS - 1].name, last->bound,
           1e6 * last->t_s, m[NRUNGS - 1].gbs, 100 * m[NRUNGS - 1].gbs / dev->dram_gbs, dev->dram_gbs, last->next,
           1e6 * last->next_s);
}

/* ---- the model against published measurements ---------------------------------------- */
/* Each published ladder beside the model of the same rungs, launched as
 * theirs were (their n, block and grid): GB/s, the ratio, the steps. */
static int report_published(const mc_counts *counted, long long n, int b, pw_csv *csv)
{
    pw_published_row rows[64];
    char path[600];
    int nr = pw_published_read("reduction-ladders.csv", rows, 64, path, sizeof path);
    if (nr < 0) {
        printf("\n(no published reduction ladder: %s cannot be read)\n", path);
        return 0;
    }
    for (int first = 0; first < nr; first++) {
        if (!pw_published_group_start(rows, first)) continue;
        if (rows[first].block <= 0) {
            printf("\n(published ladder %s: no block and grid columns; the model needs their launch)\n", rows[first].ladder);
            continue;
        }
        pw_gpu g;
        char err[600];
        if (pw_gpu_find(rows[first].device, &g, err, sizeof err)) {
            printf("\n(published ladder %s: %s)\n", rows[first].ladder, err);
            continue;
        }
        printf("\n== the model of the %s against the published %s ladder (measured: their GPU, their timing and\n"
               "   the caveats are in the header of %s)\n", g.name, rows[first].ladder, path);
        printf("%-16s %-32s %9s %10s %9s %6s %-8s %s\n", "rung", "their kernel", "n", "published", "modelled",
               "ratio", "bound", "within 25%");
        int m = 0, order[32];
        double pub[32], mod[32];
        for (int k = first; k < nr && m < 32; k++) {
            const pw_published_row *p = &rows[k];
            if (!pw_published_same_group(rows, first, k)) continue;
            int r = -1;
            for (int q = 0; q < NRUNGS; q++)
                if (!strcmp(rungs[q].name, p->rung)) r = q;
            if (r < 0) continue;
            scaled s;
            if (counts_at(r, p->n, p->block, p->grid, &counted[r], n, b, &s)) return 1;
            pw_gpu_work w = mc_work(&s.c, flops_of(p->n), dram_of(p->n, s.c.v[MC_BLOCKS]), &g, NULL, NULL, 0);
            pw_gpu_time t = pw_gpu_model(&g, &w);
            double gbs = 4.0 * (double)p->n / t.t_s * 1e-9, ratio = gbs / p->value;
            bool ok = pw_published_within(gbs, p->value);
            printf("%-16s %-32s %9lld %10.1f %9.1f %6.2f %-8s %s\n", rungs[r].name, p->theirs, p->n, p->value, gbs, ratio,
                   t.bound, ok ? "yes" : ratio > 1 ? "no: model too fast" : "no: model too slow");
            char q[96];
            snprintf(q, sizeof q, "published_%s_gbs", p->ladder);
            pw_csv_quantity(csv, rungs[r].name, p->n, 1, q, p->value);
            snprintf(q, sizeof q, "modelled_%s_gbs", p->ladder);
            pw_csv_quantity(csv, rungs[r].name, p->n, 1, q, gbs);
            snprintf(q, sizeof q, "modelled_%s_ratio", p->ladder);
            pw_csv_quantity(csv, rungs[r].name, p->n, 1, q, ratio);
            order[m] = r;
            pub[m] = p->value;
            mod[m] = gbs;
            m++;
        }
        printf("published: GB/s of the 4n bytes read, from their table; modelled: this rung launched as theirs was\n"
               "(their n, block and grid); ratio: modelled / published (above 1: the model is too fast).\n");
        if (m == 0) continue;
        const char *labels[32];
        for (int a = 0; a < m; a++) labels[a] = rungs[order[a]].name;
        pw_published_targets(labels, pub, mod, m, "GB/s", "");
    }
    return 0;
}
#endif

#if !PW_SIMT_EMULATED
/* ---- the GPU: the model beside the measurement ------------------------------------------- */
/* The model's time of rung r at n on g, from the emulator's CSV (its model_*
 * rows at n: run it with --model-n n); NaN when it has none. */
static double model_from_csv(const char *path, int r, long long n, const pw_gpu *g)
{
    mc_counts c;
    if (!path || !mc_csv_read_counts(path, rungs[r].name, n, &c)) return NAN;
    snprintf(c.kernel, sizeof c.kernel, "%s", rungs[r].kernel);
    pw_gpu_work w = mc_work(&c, flops_of(n), dram_of(n, c.v[MC_BLOCKS]), g, NULL, NULL, 0);
    return pw_gpu_model(g, &w).t_s;
}
#endif

int main(int argc, char **argv)
{
    pw_list sizes = PW_LIST(1 << 20);
    pw_list model_ns = PW_LIST(1 << 22);
    long long block = 256;
    const char *device = NULL, *model_csv = NULL;
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &sizes, "N[,N...]", "elements to sum (default 1M; 64M on a GPU is better)",
          1, 1LL << 30 },
        { "-b", "--block", PW_OPT_INT, &block, "B", "threads per block, a power of two 64..1024 (default 256)",
          64, 1024 },
        { NULL, "--device", PW_OPT_STRING, &device, "NAME|FILE",
          "the GPU the model is for: a file of common/gpus (default " PW_GPU_DEFAULT "; on a GPU, the one found) "
          "or a path to a .gpu file", 0, 0 },
        { NULL, "--model-n", PW_OPT_SIZES, &model_ns, "N[,N...]",
          "emulator: the sizes the model predicts for (default 4M = 2^22; the table shows the first)", 1, 1LL << 30 },
        { NULL, "--model-csv", PW_OPT_STRING, &model_csv, "FILE",
          "GPU: the emulator's CSV, whose counts give the model's time beside the measured one", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "the reduction ladder: six ways to sum an array on a GPU", opts, 5, &common);
    if (block & (block - 1)) {
        fprintf(stderr, "%s: -b %lld: the block must be a power of two (64, 128, 256, 512 or 1024)\n",
                common.prog, block);
        return PW_EXIT_USAGE;
    }
    pw_gpu dev;
    char tag[64];
    mc_pick_device(common.prog, device, &dev, tag, sizeof tag);
    if (common.tiny) sizes = (pw_list)PW_LIST(40000);
    long long nmax = pw_list_max(&sizes);
    if (nmax < 65537) nmax = 65537;            /* the check's largest size */
    long long alloc = nmax;
#if PW_SIMT_EMULATED
    /* counts_at's launches of a few blocks: at every modelled size, and the published ladders' (up to 2^30) */
    for (int i = 0; i < model_ns.n; i++) {
        long long need = count_len(model_ns.v[i], (int)block);
        if (need > alloc) alloc = need;
    }
    {
        pw_published_row rows[64];
        char path[600];
        int nr = pw_published_read("reduction-ladders.csv", rows, 64, path, sizeof path);
        for (int k = 0; k < nr; k++)
            for (int r = 0; r < NRUNGS; r++)
                if (!strcmp(rows[k].rung, rungs[r].name) && rows[k].block > 0) {
                    int G = rows[k].grid > 0 ? rows[k].grid : grid_of(r, rows[k].n, rows[k].block), gs = G < 4 ? G : 4;
                    long long need = (long long)gs * rows[k].block * (long long)ceil(per_thread(r, rows[k].n, G, rows[k].block));
                    if (need > alloc) alloc = need;
                }
    }
#endif
    pw_require_memory(common.prog, "-n", alloc, sizeof(float), 3);
    pw_cuda_start(common.prog);

    float *h_in = pw_alloc_floats((size_t)alloc), *h_partial = pw_alloc_floats((size_t)nmax / 64 + 4096);
    pw_fill_random(h_in, (size_t)alloc, 42, -1.0f, 1.0f);
    float *d_in = (float *)pw_cuda_alloc((size_t)alloc * sizeof(float));
    float *d_partial = (float *)pw_cuda_alloc(((size_t)nmax / 64 + 4096) * sizeof(float));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, (size_t)alloc * sizeof(float), cudaMemcpyHostToDevice));

    if (verify(h_in, d_in, d_partial, h_partial, nmax, common.tiny)) {
        fprintf(stderr, "%s: a rung gave a wrong sum; nothing was measured\n", common.prog);
        return PW_EXIT_WRONG;
    }
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "block", "%lld", block);
    pw_csv_meta(csv, "model_device", "%s (%s, %s)", tag, dev.name, dev.path);

#if PW_SIMT_EMULATED
    g_in = d_in;
    g_h_in = h_in;
    g_partial = d_partial;
    g_h_partial = h_partial;
    g_in_len = alloc;
    static mc_counts counted[PW_MAX_LIST][NRUNGS];
    int at_max = 0;   /* the largest size counted: the model scales its counts */
#endif
    for (int s = 0; s < sizes.n; s++) {
        int n = (int)sizes.v[s];
#if PW_SIMT_EMULATED
        if (sizes.v[s] >= sizes.v[at_max]) at_max = s;
        printf("n = %d floats, block %lld: what each rung costs, counted by the emulator\n", n, block);
        printf("%-16s %6s %9s %9s %10s %9s %8s %9s %9s\n", "rung", "blocks", "barriers", "SIMT eff",
               "conflicts", "shm ops", "shuffles", "sect/req", "steps/el");
        double eff_of[NRUNGS], steps_of[NRUNGS], ways_of[NRUNGS];
        for (int r = 0; r < NRUNGS; r++) {
            run_sum(r, d_in, d_partial, h_partial, n, (int)block);
            const pw_simt_counters *c = pw_simt_last_counters();
            counted[s][r] = mc_read();
            double eff = pw_simt_efficiency(c), ways = pw_simt_conflict_ways(c);
            double shm = (double)(c->shared_loads + c->shared_stores);
            double spr = c->global_load_requests ? (double)c->global_load_sectors / (double)c->global_load_requests : 0;
            double steps = (double)c->warp_steps / n;
            printf("%-16s %6lld %9lld %9.3f %9.2fx %9.0f %8lld %9.2f %9.3f\n", rungs[r].name, c->blocks,
                   c->barriers, eff, ways, shm, c->collectives, spr, steps);
            const char *v = rungs[r].name;
            pw_csv_quantity(csv, v, n, (int)block, "blocks", (double)c->blocks);
            pw_csv_quantity(csv, v, n, (int)block, "barriers", (double)c->barriers);
            pw_csv_quantity(csv, v, n, (int)block, "simt_efficiency", eff);
            pw_csv_quantity(csv, v, n, (int)block, "conflict_ways", ways);
            pw_csv_quantity(csv, v, n, (int)block, "max_conflict_ways", (double)c->shared_max_ways);
            pw_csv_quantity(csv, v, n, (int)block, "shared_accesses", shm);
            pw_csv_quantity(csv, v, n, (int)block, "shuffles", (double)c->collectives);
            pw_csv_quantity(csv, v, n, (int)block, "load_sectors_per_request", spr);
            pw_csv_quantity(csv, v, n, (int)block, "warp_steps", (double)c->warp_steps);
            eff_of[r] = eff;
            steps_of[r] = steps;
            ways_of[r] = ways;
        }
        printf("\nbarriers: __syncthreads passed (per block, summed); SIMT eff: active lanes / 32 over every warp\n"
               "step; conflicts: shared-memory wavefronts per warp access (1 = none); shm ops: per-thread shared\n"
               "loads + stores; sect/req: 32-byte sectors per warp load of the input (4 = perfect); steps/el: warp\n"
               "instructions the emulator saw per element.\n");
        /* The answers from the table: the worst rung by efficiency and by conflicts, the last against the first. */
        int lo = 0, wc = 0;
        for (int r = 1; r < NRUNGS; r++) {
            if (eff_of[r] < eff_of[lo]) lo = r;
            if (ways_of[r] > ways_of[wc]) wc = r;
        }
        printf("\nanswer: %s has the lowest SIMT efficiency (%.3f) and %s the most bank-conflict passes (%.2fx);\n"
               "  %s issues %.3f warp steps per element, %.1fx fewer than %s's %.3f\n", rungs[lo].name,
               eff_of[lo], rungs[wc].name, ways_of[wc], rungs[NRUNGS - 1].name, steps_of[NRUNGS - 1],
               steps_of[0] / steps_of[NRUNGS - 1], rungs[0].name, steps_of[0]);
        if (s + 1 < sizes.n) printf("\n");
#else
        /* Bandwidth yardstick: a copy moves 8 bytes per element; a reduction reads 4. */
        pw_bench_config cfg = pw_bench_from_opts(&common);
        float *d_out = (float *)pw_cuda_alloc((size_t)n * sizeof(float));
        pw_bench_stats st;
        struct copy_ctx { const float *in; float *out; int n; } cc = { d_in, d_out, n };
        pw_cuda_time(&cfg, [](void *p) {
            copy_ctx *c = (copy_ctx *)p;
            copy_stride<<<(int)pw_ceil_div((size_t)c->n, 256), 256, 0>>>(c->in, c->out, c->n, 1);
        }, &cc, &st);
        double copy_gbs = pw_gbs(8.0 * n, st.median);
        pw_csv_summary(csv, "copy", n, 1, "", &st, 0, 8.0 * n);
        printf("n = %d floats, block %lld; copy kernel: %.1f GB/s (the yardstick); model: the %s (%s)\n", n, block,
               copy_gbs, dev.name, dev.path);
        bool any_model = false;
        for (int r = 0; r < NRUNGS && !any_model; r++) any_model = model_from_csv(model_csv, r, n, &dev) > 0;
        if (!model_csv)
            printf("(no --model-csv: the model's column needs the emulator's counts: ./build/ch08/reduce -b %lld "
                   "--model-n %d --csv F)\n", block, n);
        else if (!any_model)
            printf("(%s has no model rows at n = %d: run the emulator's reduce with -b %lld --model-n %d)\n",
                   model_csv, n, block, n);
        printf("%-16s %11s %7s %9s %8s %11s %8s\n", "rung", "median", "IQR", "GB/s", "%copy", "modelled us",
               "meas/mod");
        double gbs_of[NRUNGS];
        for (int r = 0; r < NRUNGS; r++) {
            launch_ctx c = { r, n, (int)block, grid_of(r, n, (int)block), d_in, d_partial };
            pw_cuda_time(&cfg, launch, &c, &st);
            double gbs = pw_gbs(4.0 * n, st.median);
            gbs_of[r] = gbs;
            double tm = model_from_csv(model_csv, r, n, &dev);
            char mod[16], ratio[16];
            mc_beside_measured(tm, st.median, tag, csv, rungs[r].name, n, mod, ratio, sizeof mod);
            printf("%-16s %8.1f us %6.1f%% %9.1f %7.1f%% %11s %8s\n", rungs[r].name, st.median * 1e6,
                   100 * (st.q3 - st.q1) / st.median, gbs, 100 * gbs / copy_gbs, mod, ratio);
            pw_csv_summary(csv, rungs[r].name, n, 1, "", &st, flops_of(n), 4.0 * n);   /* GB/s of the 4n bytes read, as printed */
        }
        printf("median, IQR, GB/s: measured (GB/s of the 4n bytes read); modelled us: common/gpu_model.h's time for\n"
               "the %s from the emulator's counts (not measured); meas/mod: measured over modelled.\n", dev.name);
        int best = 0;
        for (int r = 1; r < NRUNGS; r++) if (gbs_of[r] > gbs_of[best]) best = r;
        printf("\nanswer: %s read %.1f GB/s, %.1f%% of the copy's; %s %.1fx the first rung's (%s)\n",
               rungs[NRUNGS - 1].name, gbs_of[NRUNGS - 1], 100 * gbs_of[NRUNGS - 1] / copy_gbs, rungs[NRUNGS - 1].name,
               gbs_of[NRUNGS - 1] / gbs_of[0], rungs[0].name);
        printf("answer: the fastest rung on this run is %s (%.1f%% of the copy's bandwidth)", rungs[best].name,
               100 * gbs_of[best] / copy_gbs);
        int tie[NRUNGS], nt = pw_ties(gbs_of, NRUNGS, best, PW_TIE_SHARE, tie);
        for (int k = 0; k < nt; k++) printf("%s%s", k ? ", " : "; a tie, within 5%, with ", rungs[tie[k]].name);
        printf("\n");
        CUDA_CHECK(cudaFree(d_out));
#endif
    }
#if PW_SIMT_EMULATED
    /* The model, from the largest size counted: the table at the first --model-n, rows for every one. */
    int rc = PW_EXIT_PASS;
    modelled m[NRUNGS];
    for (int i = model_ns.n - 1; i >= 0 && rc == PW_EXIT_PASS; i--)
        if (report_model(&dev, model_ns.v[i], (int)block, counted[at_max], sizes.v[at_max], i == 0, csv, m))
            rc = PW_EXIT_WRONG;
    if (rc == PW_EXIT_PASS) model_answers(&dev, model_ns.v[0], m);
    if (rc == PW_EXIT_PASS && report_published(counted[at_max], sizes.v[at_max], (int)block, csv)) rc = PW_EXIT_WRONG;
#endif
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_partial));
    pw_free(h_in);
    pw_free(h_partial);
#if PW_SIMT_EMULATED
    if (rc != PW_EXIT_PASS) {
        pw_csv_close(csv);
        return rc;
    }
#endif
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
