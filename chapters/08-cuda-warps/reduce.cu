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
 *   ./build/ch08/reduce                  on the emulator: counts per rung
 *   ./build/gpu/ch08/reduce -n 64M       on a GPU: GB/s and % of a copy kernel's
 *
 * Every rung is first checked against a CPU sum, on odd sizes and several
 * block sizes. What to expect on the emulator: rung 0 has a SIMT efficiency
 * near 0.25 and rung 1 conflicts up to 8-way; rungs 2-5 neither, and each
 * step needs fewer barriers and shared-memory accesses per element.
 */
#include "simt_driver.h"
#include "warps.cuh"

typedef struct {
    const char *name;
    int first_add;              /* elements per thread added at load: 1 or 2 */
    int many;                   /* rung 5: a fixed grid, many per thread */
} rung;

static const rung rungs[] = {
    { "interleaved", 1, 0 },   { "strided_index", 1, 0 }, { "sequential", 1, 0 },
    { "first_add", 2, 0 },     { "warp_shuffle", 2, 0 },  { "many_per_thread", 1, 1 },
};
enum { NRUNGS = 6 };

/* Rung 5's grid: enough blocks to fill a GPU (2048 blocks of 256 keep
 * every SM of an H100 busy), at least 8 elements per thread. */
static int grid_of(int r, long long n, int block)
{
    if (rungs[r].many) {
        long long g = (long long)pw_ceil_div((size_t)n, (size_t)block * 8);
        return (int)(g < 1 ? 1 : g > 2048 ? 2048 : g);
    }
    long long g = (long long)pw_ceil_div((size_t)n, (size_t)block * rungs[r].first_add);
    return (int)(g < 1 ? 1 : g);
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

/* Run rung r on the first n elements of d_in; the partials added on the host. */
static double run_sum(int r, const float *d_in, float *d_partial, float *h_partial, int n, int block)
{
    launch_ctx c = { r, n, block, grid_of(r, n, block), d_in, d_partial };
    launch(&c);
    pw_cuda_sync_check();
    CUDA_CHECK(cudaMemcpy(h_partial, d_partial, (size_t)c.grid * sizeof(float), cudaMemcpyDeviceToHost));
    double s = 0;
    for (int b = 0; b < c.grid; b++) s += h_partial[b];
    return s;
}

/* The tolerance: a float sum rounds once per addition, by at most 2^-24 of
 * the running value, and a value passes through at most `depth` additions
 * (the elements a thread adds in a register, then log2(block) tree levels):
 * |error| <= depth * 2^-24 * sum |x|. The host sum is in double (exact
 * enough to be the reference). */
static double tolerance(int r, long long n, int block, double abs_sum)
{
    double per_thread = rungs[r].many ? (double)pw_ceil_div((size_t)n, (size_t)grid_of(r, n, block) * block)
                                      : rungs[r].first_add;
    double depth = per_thread + log2((double)block) + 1;
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
                bad |= pw_check_scalar(what, got, ref, tolerance(r, n, blocks[b], abs_sum), 0);
                tried++;
            }
        }
    if (!bad) printf("all variants match the CPU sum (%d runs: 6 rungs x sizes 1, 31, 1000, 4099%s x blocks "
                     "64, 128, 256, 512)\n\n", tried, tiny ? "" : ", 65537");
    return bad;
}

int main(int argc, char **argv)
{
    pw_list sizes = PW_LIST(1 << 20);
    long long block = 256;
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &sizes, "N[,N...]", "elements to sum (default 1M; 64M on a GPU is better)",
          1, 1LL << 30 },
        { "-b", "--block", PW_OPT_INT, &block, "B", "threads per block, a power of two 64..1024 (default 256)",
          64, 1024 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "the reduction ladder: six ways to sum an array on a GPU", opts, 2, &common);
    if (block & (block - 1)) {
        fprintf(stderr, "%s: -b %lld: the block must be a power of two (64, 128, 256, 512 or 1024)\n",
                common.prog, block);
        return PW_EXIT_USAGE;
    }
    if (common.tiny) sizes = (pw_list)PW_LIST(40000);
    long long nmax = pw_list_max(&sizes);
    if (nmax < 65537) nmax = 65537;            /* the check's largest size */
    pw_require_memory(common.prog, "-n", nmax, sizeof(float), 3);
    pw_cuda_start(common.prog);

    float *h_in = pw_alloc_floats((size_t)nmax), *h_partial = pw_alloc_floats((size_t)nmax / 64 + 4096);
    pw_fill_random(h_in, (size_t)nmax, 42, -1.0f, 1.0f);
    float *d_in = (float *)pw_cuda_alloc((size_t)nmax * sizeof(float));
    float *d_partial = (float *)pw_cuda_alloc(((size_t)nmax / 64 + 4096) * sizeof(float));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, (size_t)nmax * sizeof(float), cudaMemcpyHostToDevice));

    if (verify(h_in, d_in, d_partial, h_partial, nmax, common.tiny)) {
        fprintf(stderr, "%s: a rung gave a wrong sum; nothing was measured\n", common.prog);
        return PW_EXIT_WRONG;
    }
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "block", "%lld", block);

    for (int s = 0; s < sizes.n; s++) {
        int n = (int)sizes.v[s];
#if PW_SIMT_EMULATED
        printf("n = %d floats, block %lld: what each rung costs, counted by the emulator\n", n, block);
        printf("%-16s %6s %9s %9s %10s %9s %8s %9s %9s\n", "rung", "blocks", "barriers", "SIMT eff",
               "conflicts", "shm ops", "shuffles", "sect/req", "steps/el");
        double eff_of[NRUNGS], steps_of[NRUNGS], ways_of[NRUNGS];
        for (int r = 0; r < NRUNGS; r++) {
            run_sum(r, d_in, d_partial, h_partial, n, (int)block);
            const pw_simt_counters *c = pw_simt_last_counters();
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
        printf("n = %d floats, block %lld; copy kernel: %.1f GB/s (the yardstick)\n", n, block, copy_gbs);
        printf("%-16s %11s %7s %9s %8s\n", "rung", "median", "IQR", "GB/s", "%copy");
        double gbs_of[NRUNGS];
        for (int r = 0; r < NRUNGS; r++) {
            launch_ctx c = { r, n, (int)block, grid_of(r, n, (int)block), d_in, d_partial };
            pw_cuda_time(&cfg, launch, &c, &st);
            double gbs = pw_gbs(4.0 * n, st.median);
            gbs_of[r] = gbs;
            printf("%-16s %8.1f us %6.1f%% %9.1f %7.1f%%\n", rungs[r].name, st.median * 1e6,
                   100 * (st.q3 - st.q1) / st.median, gbs, 100 * gbs / copy_gbs);
            pw_csv_summary(csv, rungs[r].name, n, 1, "", &st, (double)n, 4.0 * n);
        }
        int best = 0;
        for (int r = 1; r < NRUNGS; r++) if (gbs_of[r] > gbs_of[best]) best = r;
        printf("\nanswer: %s read %.1f GB/s, %.1f%% of the copy's; %s %.1fx the first rung's (%s)\n",
               rungs[NRUNGS - 1].name, gbs_of[NRUNGS - 1], 100 * gbs_of[NRUNGS - 1] / copy_gbs, rungs[NRUNGS - 1].name,
               gbs_of[NRUNGS - 1] / gbs_of[0], rungs[0].name);
        printf("answer: the fastest rung on this run is %s (%.1f%% of the copy's bandwidth)\n", rungs[best].name,
               100 * gbs_of[best] / copy_gbs);
        CUDA_CHECK(cudaFree(d_out));
#endif
    }
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_partial));
    pw_free(h_in);
    pw_free(h_partial);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
