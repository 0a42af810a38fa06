/* chapters/08-cuda-warps/warps.cu: grid, block, warp, lane; divergence;
 * a vote; and how fast the emulator switches threads.
 *
 * A block's threads are cut into warps of 32 consecutive threads, and a
 * warp issues one instruction for all its lanes at once (SIMT). A branch
 * that splits a warp runs both sides one after the other, with the lanes of
 * the other side idle; a branch that splits only between warps costs nothing.
 *
 *   ./build/ch08/warps                  on the emulator: who ran where, SIMT
 *                                       efficiency, atomics per vote
 *   ./build/gpu/ch08/warps -n 16M       on a GPU: the two branches timed
 *
 * The branches' time on a GPU is also modelled (common/gpu_model.h) for
 * --device at --model-n (default 16M): their counts at n scaled by N / n
 * (exact when both are multiples of the block, 256: every warp then does the
 * same). The votes are not: the model has no term for atomics.
 *
 * What to expect: a branch on lane parity has a SIMT efficiency of 0.5
 * (every instruction inside it has 16 of 32 lanes active), a branch on the
 * warp index 1.0; counting with a ballot takes one atomic per warp instead
 * of one per match; the emulator crosses millions of barriers per second.
 */
#include "simt_driver.h"
#include "warps.cuh"
#include "model.h"

/* What the model is given for a branch kernel besides the counts. flops: the
 * FFMA lane slots the warps issue, 2 x 32 per warp FFMA: each side's load is
 * followed by its `iters` FFMAs with the same lanes active, so a warp issues
 * iters x (its load requests) FFMAs: the useful 2 iters n flops, doubled when
 * every warp runs both sides (the idle lanes' slots are spent all the same).
 * DRAM: x read once, y written once. */
static double branch_flops(double ld_requests, int iters) { return 64.0 * iters * ld_requests; }
static double branch_dram(long long n) { return 8.0 * (double)n; }

/* The host's version of busy() in warps.cu. */
static float busy_ref(float v, float a, int iters)
{
    for (int k = 0; k < iters; k++) v = v * a + 0.5f;
    return v;
}

/* Who ran element i: block i / blockDim, warp (i % blockDim) / 32, lane i % 32. */
static int show_whoami(int n, int block)
{
    int *d_b = (int *)pw_cuda_alloc((size_t)n * sizeof(int)), *d_w = (int *)pw_cuda_alloc((size_t)n * sizeof(int));
    int *d_l = (int *)pw_cuda_alloc((size_t)n * sizeof(int));
    int *b = (int *)pw_alloc_bytes((size_t)n * sizeof(int)), *w = (int *)pw_alloc_bytes((size_t)n * sizeof(int));
    int *l = (int *)pw_alloc_bytes((size_t)n * sizeof(int));
    whoami<<<(int)pw_ceil_div((size_t)n, (size_t)block), block, 0>>>(d_b, d_w, d_l, n);
    pw_cuda_sync_check();
    CUDA_CHECK(cudaMemcpy(b, d_b, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(w, d_w, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(l, d_l, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += b[i] != i / block || w[i] != i % block / 32 || l[i] != i % 32;
    if (bad) fprintf(stderr, "whoami: %d of %d elements ran in the wrong place\n", bad, n);
    else {
        printf("%d elements, blocks of %d threads: element i ran in block i/%d, warp (i%%%d)/32, lane i%%32\n", n,
               block, block, block);
        printf("  %8s %6s %5s %5s\n", "element", "block", "warp", "lane");
        static const int show[] = { 0, 1, 31, 32, 63, 64, 95, 96, 99 };
        for (size_t k = 0; k < sizeof show / sizeof show[0]; k++)
            if (show[k] < n) printf("  %8d %6d %5d %5d\n", show[k], b[show[k]], w[show[k]], l[show[k]]);
        /* The last warp's busy lanes: the elements that ran in the same block and warp as the last one. */
        int last = n - 1, busy = 0;
        for (int i = 0; i < n; i++) busy += b[i] == b[last] && w[i] == w[last];
        printf("answer: element %d ran in block %d, warp %d, lane %d; its warp has %d busy lanes of 32\n\n", last,
               b[last], w[last], l[last], busy);
    }
    cudaFree(d_b); cudaFree(d_w); cudaFree(d_l);
    pw_free(b); pw_free(w); pw_free(l);
    return bad != 0;
}

typedef struct { int which, n, iters, block; const float *x; float *y; int *count; } div_ctx;

static void launch_branch(void *p)
{
    div_ctx *c = (div_ctx *)p;
    int g = (int)pw_ceil_div((size_t)c->n, (size_t)c->block);
    if (c->which == 0) branch_on_lane<<<g, c->block, 0>>>(c->x, c->y, c->n, c->iters);
    else branch_on_warp<<<g, c->block, 0>>>(c->x, c->y, c->n, c->iters);
}

static void launch_count(void *p)
{
    div_ctx *c = (div_ctx *)p;
    int g = (int)pw_ceil_div((size_t)c->n, (size_t)c->block);
    if (c->which == 0) count_ballot<<<g, c->block, 0>>>(c->x, c->n, 0.5f, c->count);
    else count_atomic<<<g, c->block, 0>>>(c->x, c->n, 0.5f, c->count);
}

/* y against the host: nvcc may fuse v*a + 0.5f into one FMA (one rounding
 * instead of two), so allow a few units in the last place per step. */
static int check_branch(div_ctx *c, const float *x, float *y, float *want, int n)
{
    launch_branch(c);
    pw_cuda_sync_check();
    CUDA_CHECK(cudaMemcpy(y, c->y, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int lane_side = i % c->block % 2 == 0, warp_side = (i % c->block / 32) % 2 == 0;
        want[i] = busy_ref(x[i], (c->which == 0 ? lane_side : warp_side) ? 0.5f : 0.25f, c->iters);
    }
    char what[64];
    snprintf(what, sizeof what, "%s n=%d block=%d", c->which == 0 ? "branch_on_lane" : "branch_on_warp", n,
             c->block);
    return pw_check_floats(what, y, want, (size_t)n, 1e-6, 4e-7 * c->iters);
}

static int check_count(div_ctx *c, const float *x, int n)
{
    int want = 0, got = 0;
    for (int i = 0; i < n; i++) want += x[i] > 0.5f;
    CUDA_CHECK(cudaMemset(c->count, 0, sizeof(int)));
    launch_count(c);
    pw_cuda_sync_check();
    CUDA_CHECK(cudaMemcpy(&got, c->count, sizeof(int), cudaMemcpyDeviceToHost));
    char what[64];
    snprintf(what, sizeof what, "%s n=%d block=%d", c->which == 0 ? "count_ballot" : "count_atomic", n, c->block);
    return pw_check_scalar(what, got, want, 0, 0);
}

int main(int argc, char **argv)
{
    long long n = 1 << 18, iters = 16, rounds = 2000, model_n = 1 << 24;
    const char *device = NULL, *model_csv = NULL;
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_INT, &n, "N", "elements for the branches and the vote (default 256K)", 1, 1LL << 30 },
        { NULL, "--iters", PW_OPT_INT, &iters, "K", "multiply-adds inside each side of the branch (default 16)", 1,
          1 << 20 },
        { NULL, "--rounds", PW_OPT_INT, &rounds, "R", "barriers per thread in the emulator benchmark (default 2000)",
          1, 1 << 24 },
        { NULL, "--device", PW_OPT_STRING, &device, "NAME|FILE",
          "the GPU the model is for: a file of common/gpus (default " PW_GPU_DEFAULT "; on a GPU, the one found) "
          "or a path to a .gpu file", 0, 0 },
        { NULL, "--model-n", PW_OPT_INT, &model_n, "N", "emulator: the size the model predicts for (default 16M)", 1,
          1LL << 30 },
        { NULL, "--model-csv", PW_OPT_STRING, &model_csv, "FILE",
          "GPU: the emulator's CSV, whose counts give the model's time beside the measured one", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "grid, block, warp, lane; divergence; vote; the emulator's speed", opts, 6, &common);
    if (common.tiny) { n = 5000; rounds = 50; }
    pw_gpu dev;
    char tag[64];
    mc_pick_device(common.prog, device, &dev, tag, sizeof tag);
    pw_require_memory(common.prog, "-n", n, sizeof(float), 5);
    pw_cuda_start(common.prog);

    int bad = show_whoami(100, 64);
    float *x = pw_alloc_floats((size_t)n), *y = pw_alloc_floats((size_t)n), *want = pw_alloc_floats((size_t)n);
    pw_fill_random(x, (size_t)n, 11, 0.0f, 1.0f);
    float *d_x = (float *)pw_cuda_alloc((size_t)n * sizeof(float)), *d_y = (float *)pw_cuda_alloc((size_t)n * sizeof(float));
    int *d_count = (int *)pw_cuda_alloc(sizeof(int));
    CUDA_CHECK(cudaMemcpy(d_x, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
    static const int check_sizes[] = { 1, 33, 1000 }, check_blocks[] = { 32, 96, 256 };
    for (int which = 0; which < 2; which++)
        for (int s = 0; s < 3; s++)
            for (int b = 0; b < 3; b++) {
                int m = check_sizes[s] < n ? check_sizes[s] : (int)n;
                div_ctx c = { which, m, (int)iters, check_blocks[b], d_x, d_y, d_count };
                bad |= check_branch(&c, x, y, want, m);
                bad |= check_count(&c, x, m);
            }
    if (bad) {
        fprintf(stderr, "%s: a kernel gave a wrong result; nothing was measured\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the host (branches and counts; sizes 1, 33, 1000; blocks 32, 96, 256)\n\n");

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "model_device", "%s (%s, %s)", tag, dev.name, dev.path);
    static const char *branch_names[] = { "branch_on_lane", "branch_on_warp" };
    static const char *count_names[] = { "count_ballot", "count_atomic" };
#if PW_SIMT_EMULATED
    printf("divergence and vote, n = %lld, blocks of 256, %lld multiply-adds per side, counted by the emulator\n",
           n, iters);
    printf("%-16s %11s %12s %10s %9s\n", "kernel", "warp steps", "active lanes", "SIMT eff", "atomics");
    double eff[4], steps[4], atomics[4];
    mc_counts branch_counts[2];
    for (int k = 0; k < 4; k++) {
        div_ctx c = { k % 2, (int)n, (int)iters, 256, d_x, d_y, d_count };
        if (k < 2) launch_branch(&c);
        else { CUDA_CHECK(cudaMemset(d_count, 0, sizeof(int))); launch_count(&c); }
        pw_cuda_sync_check();
        const pw_simt_counters *ct = pw_simt_last_counters();
        const char *name = k < 2 ? branch_names[k] : count_names[k - 2];
        printf("%-16s %11lld %12lld %10.3f %9lld\n", name, ct->warp_steps, ct->active_lanes,
               pw_simt_efficiency(ct), ct->atomics);
        pw_csv_quantity(csv, name, n, 256, "simt_efficiency", pw_simt_efficiency(ct));
        pw_csv_quantity(csv, name, n, 256, "warp_steps", (double)ct->warp_steps);
        pw_csv_quantity(csv, name, n, 256, "atomics", (double)ct->atomics);
        if (k < 2) branch_counts[k] = mc_read();
        eff[k] = pw_simt_efficiency(ct);
        steps[k] = (double)ct->warp_steps;
        atomics[k] = (double)ct->atomics;
    }
    printf("\nwarp steps: the loads, stores and warp collectives the emulator saw, one per warp; SIMT eff:\n"
           "active lanes / (32 x warp steps). The arithmetic of busy() is not counted: on a GPU the\n"
           "divergent kernel runs it twice per warp, once per side (time it there: ./build/gpu/ch08/warps).\n\n");
    /* The answers from the counts above (k: 0 lane branch, 1 warp branch, 2 ballot, 3 atomic). */
    printf("answer: branch_on_lane ran at SIMT efficiency %.3f, branch_on_warp at %.3f: the lane branch issued\n"
           "  %.2fx the warp steps for the same work\n", eff[0], eff[1], steps[1] > 0 ? steps[0] / steps[1] : 0.0);
    if (atomics[3] > 0 && atomics[2] > 0)
        printf("answer: count_ballot made %.0f atomics (one per warp), count_atomic %.0f (one per match): %.1fx fewer\n\n",
               atomics[2], atomics[3], atomics[3] / atomics[2]);
    else
        printf("answer: not shown on this run: no element was above the threshold, so no kernel made an atomic\n\n");

    /* The branches on a GPU, modelled: the counts at n scaled to model_n. A
     * partial block at either size makes the scaling approximate (its warps'
     * lanes idle): the line says so. */
    {
        bool exact = n % 256 == 0 && model_n % 256 == 0;
        double f = (double)model_n / (double)n;
        printf("modelled, not measured: the branches on the %s at n = %lld\n  (the counts at n = %lld x %g; %s)\n",
               dev.name, model_n, n, f, exact ? "exact: both sizes are whole blocks of 256"
                                             : "NOT exact: a size is not a multiple of the block, 256");
        printf("%-16s %10s %10s %-8s %-15s %6s %6s\n", "kernel", "time us", "GFLOP/s", "bound", "next (x less)",
               "blk/SM", "waves");
        pw_gpu_time t[2];
        for (int k = 0; k < 2; k++) {
            mc_counts at = mc_scale(&branch_counts[k], f);
            pw_gpu_work w = mc_work(&at, branch_flops(at.v[MC_LD_REQ], (int)iters), branch_dram(model_n), &dev, NULL,
                                    NULL, 0);
            t[k] = pw_gpu_model(&dev, &w);
            char nx[32];
            double useful = 2.0 * (double)iters * (double)model_n;
            printf("%-16s %10.2f %10.1f %-8s %-15s %6d %6.0f\n", branch_names[k], 1e6 * t[k].t_s,
                   useful / t[k].t_s * 1e-9, t[k].bound, mc_next(&t[k], nx, sizeof nx), t[k].occ.blocks_per_sm,
                   t[k].waves);
            mc_csv_counts(csv, branch_names[k], model_n, n, &at);
            mc_csv_modelled(csv, branch_names[k], model_n, &dev, &w, &t[k], branch_dram(model_n));
        }
        printf("GFLOP/s: the useful 2 x iters x n flops over the modelled time; the model is given the FFMA slots\n"
               "the warps issue (64 per warp FFMA, both sides of a divergent warp). count_ballot and count_atomic\n"
               "are not modelled: common/gpu_model.h has no term for atomics.\n");
        printf("answer: modelled on the %s at n = %lld with %lld multiply-adds a side, branch_on_lane takes %.2fx\n"
               "  branch_on_warp's time (%s-bound against %s-bound)\n\n", dev.name, model_n, iters,
               t[0].t_s / t[1].t_s, t[0].bound, t[1].bound);
    }

    /* The emulator's own speed, on one core: a barrier crossing is a switch
     * from each thread to the scheduler and back; an access is a call to the
     * emulator's hook, which checks it and files it in its warp's log. Five
     * runs each: the median, and the spread from the slowest to the fastest. */
    int *d_out = (int *)pw_cuda_alloc(64 * sizeof(int));
    barrier_loop<<<4, 256, 0>>>(d_out, 10);     /* warm: the fibers exist */
    pw_cuda_sync_check();
    enum { RUNS = 5 };
    double cross_rate[RUNS], access_rate[RUNS];
    long long crossings = 0, accesses = 0;
    int access_rounds = (int)rounds * 2;
    for (int r = 0; r < RUNS; r++) {
        double t0 = pw_now();
        barrier_loop<<<16, 256, 0>>>(d_out, (int)rounds);
        pw_cuda_sync_check();
        double dt = pw_now() - t0;
        crossings = pw_simt_last_counters()->barrier_crossings;
        cross_rate[r] = (double)crossings / dt;
        t0 = pw_now();
        access_loop<<<16, 256, 0>>>(d_x, d_y, (int)n, access_rounds);
        pw_cuda_sync_check();
        dt = pw_now() - t0;
        const pw_simt_counters *c = pw_simt_last_counters();
        accesses = c->global_loads + c->global_stores + c->shared_loads + c->shared_stores + c->atomics;
        access_rate[r] = (double)accesses / dt;
    }
    pw_bench_stats cs, as;
    pw_summarize(cross_rate, RUNS, &cs);
    pw_summarize(access_rate, RUNS, &as);
    printf("emulator speed, one core, median of %d runs (slowest-fastest):\n", RUNS);
    printf("  %lld barrier crossings (16 blocks x 256 threads x %lld barriers): %.1f million per second (%.1f-%.1f)\n",
           crossings, rounds, cs.median * 1e-6, cs.min * 1e-6, cs.max * 1e-6);
    printf("  %lld checked memory accesses (16 blocks x 256 threads x %d loads + 1 store): %.1f million per second "
           "(%.1f-%.1f)\n", accesses, access_rounds, as.median * 1e-6, as.min * 1e-6, as.max * 1e-6);
    pw_csv_quantity(csv, "barrier_loop", crossings, 1, "crossings_per_second", cs.median);
    pw_csv_quantity(csv, "access_loop", accesses, 1, "accesses_per_second", as.median);
    CUDA_CHECK(cudaFree(d_out));
#else
    pw_bench_config cfg = pw_bench_from_opts(&common);
    printf("divergence and vote, n = %lld, blocks of 256, %lld multiply-adds per side\n", n, iters);
    if (!model_csv)
        printf("(no --model-csv: the model's column needs the emulator's counts: ./build/ch08/warps --iters %lld "
               "--model-n %lld --csv F)\n", iters, n);
    printf("%-16s %11s %7s %10s %11s %8s\n", "kernel", "median", "IQR", "GFLOP/s", "modelled us", "meas/mod");
    double med[4];
    for (int k = 0; k < 4; k++) {
        div_ctx c = { k % 2, (int)n, (int)iters, 256, d_x, d_y, d_count };
        pw_bench_stats st;
        pw_cuda_time(&cfg, k < 2 ? launch_branch : launch_count, &c, &st);
        med[k] = st.median;
        double flops = k < 2 ? 2.0 * (double)iters * (double)n : 0;   /* one side's multiply-adds per element */
        const char *name = k < 2 ? branch_names[k] : count_names[k - 2];
        char mod[16], ratio[16];
        mc_counts mcn;
        double tm = 0;
        if (k < 2 && model_csv && mc_csv_read_counts(model_csv, name, n, &mcn)) {
            snprintf(mcn.kernel, sizeof mcn.kernel, "%s", name);
            pw_gpu_work w = mc_work(&mcn, branch_flops(mcn.v[MC_LD_REQ], (int)iters), branch_dram(n), &dev, NULL,
                                    NULL, 0);
            tm = pw_gpu_model(&dev, &w).t_s;
        }
        mc_beside_measured(tm, st.median, tag, csv, name, n, mod, ratio, sizeof mod);
        printf("%-16s %8.1f us %6.1f%% %10.1f %11s %8s\n", name, st.median * 1e6, 100 * (st.q3 - st.q1) / st.median,
               flops ? pw_gflops(flops, st.median) : 0.0, mod, ratio);
        pw_csv_summary(csv, name, n, 1, "", &st, flops, 4.0 * (double)n);
    }
    /* Times, not counts, on a GPU: a ratio near 1 means something else (launch, memory) hid the branch. */
    printf("\nanswer: branch_on_lane took %.2fx the time of branch_on_warp (each side's %lld multiply-adds\n"
           "  issued twice per warp would make it 2x; memory and launch time pull the ratio towards 1)\n",
           med[0] / med[1], iters);
    printf("answer: count_atomic took %.2fx the time of count_ballot (one atomic per match against one per warp)\n",
           med[3] / med[2]);
    printf("(modelled us: common/gpu_model.h's time for the %s from the emulator's counts, not measured (the\n"
           "emulator's run needs the same --iters); the votes are not modelled: the model has no atomics)\n",
           dev.name);
#endif
    cudaFree(d_x); cudaFree(d_y); cudaFree(d_count);
    pw_free(x); pw_free(y); pw_free(want);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
