#define _POSIX_C_SOURCE 200809L
/* tests/test_gpu_model.c: the GPU time model (version 2): the throughput
 * terms on a made-up GPU whose answers can be worked out by hand, CUDA's
 * occupancy calculation on the shipped devices, waves, and Little's law on
 * constructed counts. (The device files' parser: test_gpu_device.c.) */
#include "gpu_model.h"
#include "gpu_published.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <math.h>
#include <string.h>

/* |got - want| <= rel * |want| */
static int near(double got, double want, double rel) { return fabs(got - want) <= rel * fabs(want); }

/* A GPU with round numbers: 10 SMs at 1 GHz, 4 schedulers of 32 FP32 lanes
 * (128 lanes x 2 flops x 10 SMs x 1 GHz = 2.56 TFLOP/s), 100 GB/s DRAM,
 * 1000 GB/s L2, 128 bytes of L1 a clock, latencies 500 (DRAM) and 200 (L2)
 * cycles, sm_90's occupancy limits. */
static pw_gpu toy(void)
{
    pw_gpu g;
    memset(&g, 0, sizeof g);
    strcpy(g.name, "toy");
    strcpy(g.arch, "sm_90");
    g.sms = 10;
    g.clock_ghz = 1.0;
    g.fp32_lanes_per_sm = 128;
    g.fp32_tflops = 2.56;
    g.schedulers_per_sm = 4;
    g.tc16_dense_tflops = 40.96;
    g.dram_gbs = 100;
    g.l2_gbs = 1000;
    g.l2_mb = 1;
    g.l1_bytes_per_clk = 128;
    g.max_threads_per_block = 1024;
    g.max_warps_per_sm = 64;
    g.max_blocks_per_sm = 32;
    g.regs_per_sm = 65536;
    g.regs_per_block = 65536;
    g.max_regs_per_thread = 255;
    g.reg_alloc_unit = 256;
    g.smem_per_sm = 228 * 1024;
    g.smem_per_block = 227 * 1024;
    g.smem_reserved_per_block = 1024;
    g.smem_alloc_unit = 128;
    g.lat_dram_cycles = 500;
    g.lat_l2_cycles = 200;
    g.lat_smem_cycles = 30;
    g.lat_ffma_cycles = 4;
    return g;
}

/* The throughput terms, with no launch (blocks 0): version 1's arithmetic. */
static void test_throughput_terms(void)
{
    pw_gpu g = toy();
    /* 2.56e12 flops of FFMAs alone: 1 s of fp32, and their 4e10 warp
     * instructions fill every issue slot (10 SMs x 4 x 1e9 a second): a tie,
     * named fp32 (compute first). */
    pw_gpu_work w = { .flops = 2.56e12 };
    pw_gpu_time t = pw_gpu_model(&g, &w);
    EXPECT(near(t.t_fp, 1.0, 1e-12) && near(t.t_issue, 1.0, 1e-12), "fp 1 s, issue 1 s: %g %g", t.t_fp, t.t_issue);
    EXPECT(!strcmp(t.bound, "fp32") && near(t.t_s, 1.0, 1e-12), "bound fp32 at 1 s, got %s %g", t.bound, t.t_s);
    /* one more instruction per FFMA: issue-bound at 2 s */
    w.warp_instructions = 4e10;
    t = pw_gpu_model(&g, &w);
    EXPECT(!strcmp(t.bound, "issue") && near(t.t_s, 2.0, 1e-12), "a load per FFMA: issue 2 s, got %s %g", t.bound, t.t_s);
    EXPECT(!strcmp(t.next, "fp32") && near(t.next_s, 1.0, 1e-12), "next: fp32 at 1 s, got %s %g", t.next, t.next_s);
    /* L1: 1e10 wavefronts (shared + global lines) = 1 s at one a clock on 10 SMs */
    pw_gpu_work l1 = { .flops = 1e9, .shared_wavefronts = 6e9, .global_lines = 4e9 };
    t = pw_gpu_model(&g, &l1);
    EXPECT(!strcmp(t.bound, "l1") && near(t.t_s, 1.0, 1e-12), "bound l1 at 1 s, got %s %g", t.bound, t.t_s);
    /* L2: 1e12 bytes at 1000 GB/s; DRAM: 1e11 at 100 GB/s */
    pw_gpu_work l2 = { .flops = 1e9, .global_sectors = 1e12 / 32 };
    t = pw_gpu_model(&g, &l2);
    EXPECT(!strcmp(t.bound, "l2") && near(t.t_s, 1.0, 1e-12), "bound l2 at 1 s, got %s %g", t.bound, t.t_s);
    pw_gpu_work dram = { .flops = 1e9, .dram_bytes = 2e11 };
    t = pw_gpu_model(&g, &dram);
    EXPECT(!strcmp(t.bound, "dram") && near(t.t_s, 2.0, 1e-12), "bound dram at 2 s, got %s %g", t.bound, t.t_s);
    /* Tensor Cores: the dense peak, and no FFMAs issued */
    pw_gpu_work tc = { .flops = 40.96e12, .tensor = 1, .warp_instructions = 40.96e12 / 8192 };
    t = pw_gpu_model(&g, &tc);
    EXPECT(!strcmp(t.bound, "tensor") && near(t.t_s, 1.0, 1e-12), "bound tensor at 1 s, got %s %g", t.bound, t.t_s);
    EXPECT(near(t.t_issue, 40.96e12 / 8192 / 4e10, 1e-12), "issue: the mma_syncs alone, %g", t.t_issue);
    EXPECT(t.t_throughput == t.t_s, "no launch, no global lines or L1 hits: the model is version 1's terms");
    /* Version 2 adds the global requests' lines to L1 and lets L1 keep a block's loads: 4e9 sectors of
     * which L2 serves 1e9 take 0.128 s of L2, where version 1 charged 0.128 x 4. */
    pw_gpu_work hits = { .flops = 1e9, .global_sectors = 4e9, .l2_sectors = 1e9 };
    t = pw_gpu_model(&g, &hits);
    EXPECT(near(t.t_l2, 0.032, 1e-12) && near(t.t_throughput, 0.128, 1e-12), "L2 0.032 s, version 1 0.128 s: %g %g",
           t.t_l2, t.t_throughput);
}

/* A launch spreads the SM-local terms over waves; a wave is as long as its
 * busiest SM's blocks. */
static void test_waves_and_tail(void)
{
    EXPECT(pw_gpu_waves(1024, 168) == 7, "1024 blocks, 168 resident: 7 waves (6.1 rounded up), got %g",
           pw_gpu_waves(1024, 168));
    EXPECT(pw_gpu_waves(168, 168) == 1 && pw_gpu_waves(169, 168) == 2 && pw_gpu_waves(1, 168) == 1,
           "168 -> 1, 169 -> 2, 1 -> 1 wave");
    EXPECT(pw_gpu_waves(0, 168) == 0 && pw_gpu_waves(5, 0) == 0, "no blocks or no room: 0");

    pw_gpu g = toy();
    /* 2.56e12 flops of FFMAs in blocks of 1024 threads with 64 registers: 1
     * block an SM (64K registers / (64 x 1024)), 10 resident. 10 blocks: 1
     * wave, 1 s. 11 blocks: 2 waves and the busiest SM does 2 blocks, each
     * 1/11 of the work: 2 x 10/11 s. */
    pw_gpu_work w = { .flops = 2.56e12, .blocks = 10, .launch = { .threads_per_block = 1024, .regs_per_thread = 64 } };
    pw_gpu_time t = pw_gpu_model(&g, &w);
    EXPECT(t.occ.blocks_per_sm == 1 && !strcmp(t.occ.limit, "registers"), "1 block an SM, limit registers: %d, %s",
           t.occ.blocks_per_sm, t.occ.limit);
    EXPECT(t.waves == 1 && near(t.t_s, 1.0, 1e-12) && t.tail == 1, "10 blocks: 1 wave, 1 s (%g waves, %g s)", t.waves,
           t.t_s);
    w.blocks = 11;
    t = pw_gpu_model(&g, &w);
    EXPECT(t.waves == 2 && near(t.t_s, 20.0 / 11, 1e-12), "11 blocks: 2 waves, 20/11 s (%g, %g)", t.waves, t.t_s);
    EXPECT(near(t.tail, 0.1, 1e-12), "the tail wave is 1 block of 10: %g", t.tail);
    EXPECT(near(t.t_throughput, 1.0, 1e-12), "version 1 knows no tail: 1 s, got %g", t.t_throughput);
}

/* Little's law: R rounds of loads, each waiting L, against the work that
 * hides them. */
static void test_latency(void)
{
    pw_gpu g = toy();
    /* One block per SM (1024 threads, 64 registers), 10 blocks, 1000 rounds
     * of loads all served by L2 (no DRAM bytes), no barrier: each warp waits
     * 1000 x 200 cycles = 200 us, plus its own share of the block's busy time
     * (a scheduler's quarter, split among the 8 warps on it: 1/8). */
    pw_gpu_work w = { .flops = 1e6, .global_sectors = 1e6, .global_lines = 0, .global_load_bytes = 32e6,
                      .blocks = 10, .rounds = 1000, .launch = { .threads_per_block = 1024, .regs_per_thread = 64 } };
    pw_gpu_time t = pw_gpu_model(&g, &w);
    double busy = 1e6 / 2.56e12 * 10 / 10;   /* one block's share of the fp32 term on its SM */
    EXPECT(t.latency_cycles == 200, "L2-served loads wait L2's 200 cycles, got %g", t.latency_cycles);
    EXPECT(!strcmp(t.bound, "latency") && near(t.t_s, 200e-6 + busy / 8, 1e-9), "latency-bound at 200 us, got %s %g",
           t.bound, t.t_s);
    /* Rounds that end at a barrier hold the whole block: its busy time adds in full, and each of its
     * 2000 barriers waits a shared-memory latency (30 cycles): 60 us more. */
    w.barriers = 2 * 1000 * 10;
    t = pw_gpu_model(&g, &w);
    EXPECT(near(t.t_s, 200e-6 + 60e-6 + busy, 1e-9), "rounds ending at barriers: 200 us + 2000 x 30 cycles + the "
           "block's busy time, got %g", t.t_s);
    w.barriers = 0;
    /* All loads from DRAM (dram bytes = loaded bytes): 500 cycles a round. */
    w.dram_bytes = 32e6;
    t = pw_gpu_model(&g, &w);
    EXPECT(t.latency_cycles == 500 && near(t.t_latency, 500e-6 + busy / 8, 1e-9), "DRAM loads: 500 cycles, %g %g",
           t.latency_cycles, t.t_latency);
    /* Half the blocks' warps (512 threads) lets 2 blocks share an SM: 20
     * blocks in 1 wave take one chain, where 2 waves of 1 would take two. */
    w.dram_bytes = 0;
    w.blocks = 20;
    w.launch.threads_per_block = 512;
    t = pw_gpu_model(&g, &w);
    EXPECT(t.occ.blocks_per_sm == 2 && t.waves == 1 && near(t.t_s, 200e-6 + busy / 2 / 4, 1e-9),
           "2 blocks an SM hide each other's wait: 1 wave, %g s (%d, %g)", t.t_s, t.occ.blocks_per_sm, t.waves);
    /* When the resident blocks' busy time exceeds one block's chain, the
     * latency is hidden: throughput-bound. 5.12e10 flops over 20 blocks is
     * 2.56e9 a block, 10 ms of an SM (256 GFLOP/s each); 2 blocks an SM:
     * 20 ms, against a chain of 10 rounds x 200 cycles (2 us) + 10 ms / 4. */
    w.flops = 5.12e10;
    w.rounds = 10;
    t = pw_gpu_model(&g, &w);
    EXPECT(!strcmp(t.bound, "fp32") && near(t.t_s, 0.02, 1e-9), "enough work hides the latency: fp32 at 20 ms, got %s %g",
           t.bound, t.t_s);
    /* Little's law's figures: 2 blocks x (32e6 bytes / 20 blocks / 10 rounds) in flight an SM; DRAM
     * needs 100 GB/s x 500 ns / 10 SMs = 5000 bytes an SM. */
    EXPECT(near(t.inflight_bytes_per_sm, 2 * 32e6 / 20 / 10, 1e-12) && near(t.needed_bytes_per_sm, 5000, 1e-12),
           "in flight %g, needed %g", t.inflight_bytes_per_sm, t.needed_bytes_per_sm);
}

/* The occupancy of ten launch shapes on three devices, against what CUDA's
 * own calculator gives: cudaOccMaxActiveBlocksPerMultiprocessor
 * (/usr/local/cuda/include/cuda_occupancy.h, CUDA 13.0, default carve-out;
 * tests/ch09_model.sh repeats this over thousands of shapes where the
 * header is installed). The shapes: threads per block, registers per
 * thread, shared bytes per block. */
static void test_occupancy_against_cuda(void)
{
    static const struct { int threads, regs, smem; int want[3]; } shapes[] = {
        /*                           sm_80 sm_86 sm_90 */
        { 1024, 32, 0, { 2, 1, 2 } },          /* warps: 32 of 64 (48 on sm_86) */
        { 256, 128, 8192, { 2, 2, 2 } },       /* registers: 32K a block */
        { 512, 40, 4096, { 3, 3, 3 } },        /* warps (sm_86: 48 / 16), registers (40 -> 1280 a warp) */
        { 128, 168, 20480, { 3, 3, 3 } },      /* registers: 168 x 32 = 5376 a warp, 3 a sub-partition */
        { 256, 64, 49152, { 3, 2, 4 } },       /* shared memory: 48 KiB + 1 KiB reserve */
        { 96, 255, 0, { 2, 2, 2 } },           /* registers at the per-thread maximum */
        { 64, 32, 70000, { 2, 1, 3 } },        /* shared memory over the sm_86 half */
        { 1024, 64, 0, { 1, 1, 1 } },          /* registers: the whole file */
        { 384, 80, 32768, { 2, 2, 2 } },       /* registers */
        { 32, 16, 0, { 32, 16, 32 } },         /* blocks per SM */
    };
    static const char *devs[3] = { "a100-sxm", "rtx-a6000", "h100-sxm" };
    for (int d = 0; d < 3; d++) {
        pw_gpu g;
        char err[512];
        if (pw_gpu_find(devs[d], &g, err, sizeof err)) {
            EXPECT(0, "device %s: %s", devs[d], err);
            continue;
        }
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            pw_gpu_launch l = { shapes[s].threads, shapes[s].regs, shapes[s].smem, 0 };
            pw_gpu_occ o = pw_gpu_occupancy(&g, &l, err, sizeof err);
            EXPECT(o.blocks_per_sm == shapes[s].want[d], "%s: %d threads, %d registers, %d shared bytes: %d blocks an SM, "
                   "CUDA says %d (limit %s: warps %d blocks %d registers %d shared %d)", devs[d], l.threads_per_block,
                   l.regs_per_thread, l.smem_per_block, o.blocks_per_sm, shapes[s].want[d], o.limit, o.by_warps,
                   o.by_blocks, o.by_regs, o.by_smem);
        }
        /* what limits: named */
        pw_gpu_launch regs = { 256, 128, 0, 0 }, smem = { 256, 32, 48 * 1024, 0 }, few = { 32, 16, 0, 0 };
        EXPECT(!strcmp(pw_gpu_occupancy(&g, &regs, NULL, 0).limit, "registers"), "%s: 128 registers limit", devs[d]);
        EXPECT(!strcmp(pw_gpu_occupancy(&g, &few, NULL, 0).limit, "blocks"), "%s: 1-warp blocks: the block limit",
               devs[d]);
        pw_gpu_occ so = pw_gpu_occupancy(&g, &smem, NULL, 0);
        EXPECT(so.blocks_per_sm == so.by_smem, "%s: 48 KiB blocks: shared memory's count %d (%s)", devs[d], so.by_smem,
               so.limit);
        /* launches that cannot run, with the reason */
        pw_gpu_launch big = { 1025, 32, 0, 0 }, hog = { 32, 256, 0, 0 }, wide = { 1024, 65, 0, 0 },
                      huge = { 32, 32, g.smem_per_block + 1, 0 };
        EXPECT(pw_gpu_occupancy(&g, &big, err, sizeof err).blocks_per_sm == 0 && strstr(err, "1025 threads"),
               "%s: 1025 threads refused: '%s'", devs[d], err);
        EXPECT(pw_gpu_occupancy(&g, &hog, err, sizeof err).blocks_per_sm == 0 && strstr(err, "256 registers"),
               "%s: 256 registers refused: '%s'", devs[d], err);
        EXPECT(pw_gpu_occupancy(&g, &wide, err, sizeof err).blocks_per_sm == 0 && strstr(err, "registers per block"),
               "%s: 1024 threads x 65 registers refused: '%s'", devs[d], err);
        EXPECT(pw_gpu_occupancy(&g, &huge, err, sizeof err).blocks_per_sm == 0 && strstr(err, "shared memory"),
               "%s: too much shared memory refused: '%s'", devs[d], err);
        pw_gpu_work w = { .flops = 1e9, .blocks = 100, .launch = hog };
        pw_gpu_time t = pw_gpu_model(&g, &w);
        EXPECT(isnan(t.t_s) && !strcmp(t.bound, "cannot run"), "%s: the model of a launch that cannot run: %s",
               devs[d], t.bound);
    }
}

static void test_bad_input(void)
{
    pw_gpu g = toy();
    pw_gpu_work nan_flops = { .flops = NAN };
    pw_gpu_time t = pw_gpu_model(&g, &nan_flops);
    EXPECT(isnan(t.t_s) && strcmp(t.bound, "invalid") == 0, "NaN flops: no time, bound invalid (%s)", t.bound);
    pw_gpu_work negative = { .flops = 1e9, .global_sectors = -1 };
    t = pw_gpu_model(&g, &negative);
    EXPECT(isnan(t.t_s) && strcmp(t.bound, "invalid") == 0, "negative count: invalid");
    pw_gpu_work inf_rounds = { .flops = 1e9, .rounds = INFINITY };
    t = pw_gpu_model(&g, &inf_rounds);
    EXPECT(isnan(t.t_s), "infinite rounds: invalid");
    pw_gpu_work zero = { 0 };
    t = pw_gpu_model(&g, &zero);
    EXPECT(t.t_s == 0 && strcmp(t.bound, "none") == 0, "no work: 0 s, bound none (%s %g)", t.bound, t.t_s);
    pw_gpu none;
    memset(&none, 0, sizeof none);
    pw_gpu_work w = { .flops = 1e9 };
    t = pw_gpu_model(&none, &w);
    EXPECT(isnan(t.t_s) && strcmp(t.bound, "invalid") == 0, "a device with no rates: invalid");
    pw_gpu no_tc = toy();
    no_tc.tc16_dense_tflops = 0;
    pw_gpu_work tc = { .flops = 1e9, .tensor = 1 };
    t = pw_gpu_model(&no_tc, &tc);
    EXPECT(isnan(t.t_s), "Tensor Core work on a GPU without them: invalid");
    t = pw_gpu_model(NULL, &w);
    EXPECT(isnan(t.t_s), "no device: invalid");
    t = pw_gpu_model(&g, NULL);
    EXPECT(isnan(t.t_s), "no work: invalid");
}

/* The device a CUDA name maps to, and the published ladders' reader and
 * groups (a folder of our own through PW_GPU_DIR). */
static void test_stems_and_published(void)
{
    EXPECT(!strcmp(pw_gpu_stem_for("NVIDIA H100 80GB HBM3"), "h100-sxm") &&
           !strcmp(pw_gpu_stem_for("NVIDIA H200"), "h200-sxm") &&
           !strcmp(pw_gpu_stem_for("NVIDIA A100-SXM4-80GB"), "a100-sxm") &&
           !strcmp(pw_gpu_stem_for("NVIDIA A100-PCIE-40GB"), "a100-pcie-40gb") &&
           !strcmp(pw_gpu_stem_for("NVIDIA RTX A6000"), "rtx-a6000") &&
           !strcmp(pw_gpu_stem_for("NVIDIA GeForce GTX 1080"), PW_GPU_DEFAULT) && !strcmp(pw_gpu_stem_for(NULL), PW_GPU_DEFAULT),
           "CUDA names to device files");
    char dir[] = "/tmp/pw_published_XXXXXX", sub[600], file[700], path[800];
    if (!mkdtemp(dir)) { EXPECT(0, "mkdtemp"); return; }
    snprintf(sub, sizeof sub, "%s/published", dir);
    snprintf(file, sizeof file, "%s/t.csv", sub);
    EXPECT(mkdir(sub, 0700) == 0, "mkdir");
    FILE *f = fopen(file, "w");
    if (!f) { EXPECT(0, "fopen"); return; }
    fprintf(f, "# a comment\ndevice,ladder,rung,their_kernel,n,value\n"
               "a,l1,r1,k1,64,10\nb,l1,r1,k1,64,20\na,l1,r2,k2,64,30\nbad line\na,l1,r3,k3,0,5\n"
               "a,l2,r1,k1,64,40,256,1024\na,l2,r2,k2,64,50,256,0\n");
    fclose(f);
    const char *old = getenv("PW_GPU_DIR");
    char *saved = old ? strdup(old) : NULL;
    setenv("PW_GPU_DIR", dir, 1);
    pw_published_row rows[8];
    int n = pw_published_read("t.csv", rows, 8, path, sizeof path);
    EXPECT(n == 4, "4 good rows (a bad line, n = 0, and a launch with a grid of 0 skipped), got %d", n);
    if (n == 4) {
        EXPECT(pw_published_group_start(rows, 0) && pw_published_group_start(rows, 1) && !pw_published_group_start(rows, 2) &&
               pw_published_group_start(rows, 3), "groups: (a,l1), (b,l1), (a,l1) again, (a,l2)");
        EXPECT(pw_published_same_group(rows, 0, 2) && !pw_published_same_group(rows, 0, 1) && rows[3].block == 256 &&
               rows[3].grid == 1024 && rows[0].block == 0 && rows[2].value == 30, "rows' fields");
    }
    EXPECT(pw_published_read("missing.csv", rows, 8, path, sizeof path) == -1 && strstr(path, "missing.csv"),
           "a missing file: -1, its path said");
    EXPECT(pw_published_within(1.25, 1) && pw_published_within(0.75, 1) && !pw_published_within(1.26, 1) &&
           !pw_published_within(0.74, 1), "the 25%% band, edges included");
    if (saved) { setenv("PW_GPU_DIR", saved, 1); free(saved); }
    else unsetenv("PW_GPU_DIR");
    unlink(file);
    rmdir(sub);
    rmdir(dir);
}

int main(void)
{
    RUN(test_throughput_terms);
    RUN(test_waves_and_tail);
    RUN(test_latency);
    RUN(test_occupancy_against_cuda);
    RUN(test_bad_input);
    RUN(test_stems_and_published);
    return UNIT_RESULT();
}
