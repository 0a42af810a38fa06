/* tests/test_gpu_model.c: the GPU time model on workloads whose answers can
 * be worked out by hand from the H100's datasheet figures. */
#include "gpu_model.h"
#include "unit.h"

#include <math.h>
#include <string.h>

static const pw_gpu *h100 = &pw_gpu_h100_sxm, *h200 = &pw_gpu_h200_sxm;

/* |got - want| <= rel * |want| */
static int near(double got, double want, double rel) { return fabs(got - want) <= rel * fabs(want); }

static void test_datasheet_identity(void)
{
    /* 132 SMs x 128 FP32 lanes x 2 flops x 1.98 GHz = 66.9 TFLOPS: the datasheet's 67. */
    double lanes = 132.0 * 128 * 2 * 1.98e9 / 1e12;
    EXPECT(near(lanes, h100->fp32_tflops, 0.01), "132 x 128 x 2 x 1.98 GHz = %.2f TFLOPS, datasheet %g", lanes,
           h100->fp32_tflops);
    double mine = h100->sms * 128.0 * 2 * h100->clock_ghz / 1e3;
    EXPECT(near(mine, h100->fp32_tflops, 0.01), "the struct's sms x clock gives %.2f TFLOPS", mine);
    /* Dense is the "with sparsity" figure halved, on both. */
    EXPECT(h100->tc16_dense_tflops == 989.5 && h100->tc16_sparse_tflops == 1979.0, "H100 989.5 dense, 1979 sparse");
    EXPECT(h200->tc16_dense_tflops == h100->tc16_dense_tflops && h200->fp32_tflops == h100->fp32_tflops,
           "H200: the same compute");
    EXPECT(h100->hbm_tbs == 3.35 && h200->hbm_tbs == 4.8, "HBM 3.35 and 4.8 TB/s");
    EXPECT(pw_gpu_peak_tflops(h100, 1) == 989.5 && pw_gpu_peak_tflops(h100, 0) == 67.0,
           "peaks: dense tensor 989.5, fp32 67");
    EXPECT(h100->source && strstr(h100->source, "https://") && h200->source && strstr(h200->source, "https://"),
           "each device names its source");
    EXPECT(h100->l2_tbs > h100->hbm_tbs && h100->smem_bytes_per_clk == 128, "L2 faster than HBM; 128 B/clk shared");
}

/* A pure-FMA SIMT workload: 1 TFLOP of FFMAs and nothing else runs at the
 * fp32 peak, 1/67 s; its FFMAs' issue time is the same 1/67 s (the identity
 * above), so the tie goes to the compute term. */
static void test_fma_bound(void)
{
    pw_gpu_work w = { .flops = 1e12 };
    pw_gpu_time t = pw_gpu_model(h100, &w);
    EXPECT(strcmp(t.bound, "fp32") == 0, "bound fp32, got %s", t.bound);
    EXPECT(near(t.t_s, 1.0 / 67.0, 1e-12), "t = 1e12 / 67e12 = %.6f s, got %.6f", 1 / 67.0, t.t_s);
    EXPECT(near(t.t_issue, 1e12 / 64 / (132 * 4 * 1.98e9), 0.01), "FFMA issue: 1e12/64 warp instructions, %g",
           t.t_issue);
    EXPECT(t.t_shared == 0 && t.t_l2 == 0 && t.t_dram == 0, "no memory terms");
    /* One other instruction per 64 FFMAs (a load per FMA in 32 lanes x 2
     * flops) costs as much issue again: 2/67 s, issue-bound. */
    w.warp_instructions = 1e12 / 64;
    t = pw_gpu_model(h100, &w);
    EXPECT(strcmp(t.bound, "issue") == 0 && near(t.t_s, 2.0 / 67.0, 0.01), "a load per FFMA: issue at 2/67 s, got %s %g",
           t.bound, t.t_s);
}

/* A Tensor Core workload: 989.5 TFLOP of mma work with few instructions
 * binds at exactly 1 s on the dense peak, never the sparse one. */
static void test_tensor_bound(void)
{
    /* 989.5e12 flops = 1.208e11 mma_sync calls of 8192 flops: 1.208e11 warp
     * instructions take 0.116 s of issue, far below 1 s. */
    pw_gpu_work w = { .flops = 989.5e12, .tensor = 1, .warp_instructions = 989.5e12 / 8192 };
    pw_gpu_time t = pw_gpu_model(h100, &w);
    EXPECT(strcmp(t.bound, "tensor") == 0, "bound tensor, got %s", t.bound);
    EXPECT(near(t.t_s, 1.0, 1e-12), "1 s at 989.5 dense, got %g", t.t_s);
    EXPECT(near(t.t_issue, 989.5e12 / 8192 / (132 * 4 * 1.98e9), 1e-12), "issue 0.116 s, got %g", t.t_issue);
    EXPECT(t.t_issue < 0.2, "no FFMA issue added for a tensor rung");
}

/* An L2-bound workload: a SIMT kernel that moves 1e12 sectors (32 TB) of
 * global traffic for 1e12 flops: 32e12 / 10e12 = 3.2 s of L2 against 15 ms
 * of fp32. */
static void test_l2_bound(void)
{
    pw_gpu_work w = { .flops = 1e12, .warp_instructions = 1e9, .global_sectors = 1e12, .dram_bytes = 3e9 };
    pw_gpu_time t = pw_gpu_model(h100, &w);
    EXPECT(strcmp(t.bound, "l2") == 0, "bound l2, got %s", t.bound);
    EXPECT(near(t.t_l2, 1e12 * 32 / (h100->l2_tbs * 1e12), 1e-12), "t_l2 = sectors x 32 / L2, got %g", t.t_l2);
    EXPECT(t.t_s == t.t_l2, "the largest term is the time");
}

/* An issue-bound workload: many instructions, few flops. 1.045e12 warp
 * instructions take 1 s at 132 SMs x 4 x 1.98 GHz. */
static void test_issue_bound(void)
{
    double per_s = 132 * 4 * 1.98e9;
    pw_gpu_work w = { .flops = 1e9, .warp_instructions = per_s };
    pw_gpu_time t = pw_gpu_model(h100, &w);
    EXPECT(strcmp(t.bound, "issue") == 0, "bound issue, got %s", t.bound);
    EXPECT(near(t.t_s, 1.0 + 1e9 / 67e12, 1e-12), "1 s plus the FFMAs (1e9 / 67e12 s), got %.9f", t.t_s);
}

/* Shared memory: 132 x 1.98e9 wavefronts is 1 s; bank conflicts count as
 * the extra wavefronts they cost. */
static void test_shared_bound(void)
{
    pw_gpu_work w = { .flops = 1e9, .tensor = 1, .shared_wavefronts = 132 * 1.98e9 };
    pw_gpu_time t = pw_gpu_model(h100, &w);
    EXPECT(strcmp(t.bound, "shared") == 0 && near(t.t_s, 1.0, 1e-12), "bound shared at 1 s, got %s %g", t.bound,
           t.t_s);
}

/* The H200 differs from the H100 only in HBM: it is faster only when the
 * DRAM term binds, by 4.8 / 3.35 = 1.43x. */
static void test_h200_only_when_dram(void)
{
    pw_gpu_work dram = { .flops = 1e9, .tensor = 1, .dram_bytes = 3.35e12 };
    pw_gpu_time a = pw_gpu_model(h100, &dram), b = pw_gpu_model(h200, &dram);
    EXPECT(strcmp(a.bound, "dram") == 0 && strcmp(b.bound, "dram") == 0, "both dram-bound: %s %s", a.bound,
           b.bound);
    EXPECT(near(a.t_s, 1.0, 1e-12) && near(a.t_s / b.t_s, 4.8 / 3.35, 1e-12), "H100 1 s, H200 1.43x faster: %g %g",
           a.t_s, a.t_s / b.t_s);
    const pw_gpu_work others[] = {
        { .flops = 1e12 },                                               /* fp32 */
        { .flops = 989.5e12, .tensor = 1, .warp_instructions = 1e9 },    /* tensor */
        { .flops = 1e12, .global_sectors = 1e12, .dram_bytes = 3e9 },    /* l2 */
        { .flops = 1e9, .warp_instructions = 1e12, .dram_bytes = 1e9 },  /* issue */
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        a = pw_gpu_model(h100, &others[i]);
        b = pw_gpu_model(h200, &others[i]);
        EXPECT(strcmp(a.bound, "dram") != 0 && a.t_s == b.t_s, "case %zu (%s): the same time on both, %g vs %g", i,
               a.bound, a.t_s, b.t_s);
    }
}

static void test_bad_input(void)
{
    pw_gpu_work nan_flops = { .flops = NAN };
    pw_gpu_time t = pw_gpu_model(h100, &nan_flops);
    EXPECT(isnan(t.t_s) && strcmp(t.bound, "invalid") == 0, "NaN flops: no time, bound invalid (%s)", t.bound);
    pw_gpu_work negative = { .flops = 1e9, .global_sectors = -1 };
    t = pw_gpu_model(h100, &negative);
    EXPECT(isnan(t.t_s) && strcmp(t.bound, "invalid") == 0, "negative count: invalid");
    pw_gpu_work inf_bytes = { .flops = 1e9, .dram_bytes = INFINITY };
    t = pw_gpu_model(h100, &inf_bytes);
    EXPECT(isnan(t.t_s), "infinite bytes: invalid");
    pw_gpu_work zero = { 0 };
    t = pw_gpu_model(h100, &zero);
    EXPECT(t.t_s == 0 && strcmp(t.bound, "none") == 0, "no work: 0 s, bound none (%s %g)", t.bound, t.t_s);
    pw_gpu none = { 0 };
    pw_gpu_work w = { .flops = 1e9 };
    t = pw_gpu_model(&none, &w);
    EXPECT(isnan(t.t_s) && strcmp(t.bound, "invalid") == 0, "a device with no rates: invalid");
    t = pw_gpu_model(NULL, &w);
    EXPECT(isnan(t.t_s), "no device: invalid");
    t = pw_gpu_model(h100, NULL);
    EXPECT(isnan(t.t_s), "no work: invalid");
}

int main(void)
{
    RUN(test_datasheet_identity);
    RUN(test_fma_bound);
    RUN(test_tensor_bound);
    RUN(test_l2_bound);
    RUN(test_issue_bound);
    RUN(test_shared_bound);
    RUN(test_h200_only_when_dram);
    RUN(test_bad_input);
    return UNIT_RESULT();
}
