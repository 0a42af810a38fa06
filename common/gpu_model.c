/* common/gpu_model.c: the H100 and H200 from their datasheets, and the
 * roofline-style time model of gpu_model.h. */
#include "gpu_model.h"

#include <math.h>
#include <stddef.h>

/* H100 SXM, from NVIDIA's datasheet ("NVIDIA H100 Tensor Core GPU", the SXM
 * column; product page https://www.nvidia.com/en-us/data-center/h100/):
 *   FP32 67 TFLOPS; BF16 and FP16 Tensor Core 1,979 TFLOPS, footnoted "with
 *   sparsity" (the dense rate is half: 989.5); HBM3 3.35 TB/s, 80 GB.
 * The SMs and the clock are in the Hopper whitepaper ("NVIDIA H100 Tensor
 * Core GPU Architecture"): 132 SMs of 128 FP32 lanes, 1.98 GHz boost. They
 * check the datasheet: 132 x 128 lanes x 2 flops (an FMA) x 1.98 GHz =
 * 66.9 TFLOPS, the "67" (tests/test_gpu_model.c asserts it within 1%).
 * The Tensor Core figure is quoted at a lower clock: 132 SMs x 4 Tensor
 * Cores x 512 dense FP16 FMAs a clock x 2 x 1.83 GHz = 989.6 TFLOPS, where
 * 1.98 GHz would give 1,070 (the two clocks, 1.83 GHz for low precision and
 * 1.98 GHz for FP32/FP64, as https://glennklockwood.com/garden/processors/h100
 * sums up the whitepaper), so only the
 * datasheet's own figure goes in below.
 *
 * l2_tbs is on no datasheet. 10 TB/s is the plateau a public microbenchmark
 * measured on an H200 (the same GH100 die and 132 SMs as the H100 SXM,
 * the same datasheet compute figures) for data sets of 4-40 MB, too big for the near L2 partition and small
 * enough for the whole L2: te42kyfo/gpu-benches, gpu-l2-cache/h200.txt
 * (https://github.com/te42kyfo/gpu-benches), 9.7-10.2 TB/s. The same
 * benchmark measured 6.9 TB/s on an H100 PCIe (114 SMs at 1.755 GHz);
 * scaled by SMs x clock to the SXM that is 9.0 TB/s. So 10 errs fast, as
 * the counted traffic (no L1 hits) errs large: t_l2 is a rough term, and
 * the README says so. */
#define H100_SOURCE "NVIDIA H100 Tensor Core GPU datasheet (SXM), https://www.nvidia.com/en-us/data-center/h100/"
#define H200_SOURCE "NVIDIA H200 Tensor Core GPU datasheet (SXM), https://www.nvidia.com/en-us/data-center/h200/"
#define HOPPER_L2_TBS 10.0

const pw_gpu pw_gpu_h100_sxm = {
    .name = "H100 SXM",
    .source = H100_SOURCE,
    .sms = 132,
    .clock_ghz = 1.98,
    .fp32_tflops = 67.0,
    .tc16_dense_tflops = 1979.0 / 2,
    .tc16_sparse_tflops = 1979.0,
    .hbm_tbs = 3.35,
    .l2_tbs = HOPPER_L2_TBS,
    .smem_bytes_per_clk = 128,    /* 32 banks x 4 bytes */
};

/* H200 SXM: the same GH100 compute as the H100 SXM (the datasheet repeats
 * 67 TFLOPS FP32 and 1,979 TFLOPS "with sparsity" BF16/FP16), with HBM3e:
 * 141 GB at 4.8 TB/s. Only the DRAM term of the model differs. */
const pw_gpu pw_gpu_h200_sxm = {
    .name = "H200 SXM",
    .source = H200_SOURCE,
    .sms = 132,
    .clock_ghz = 1.98,
    .fp32_tflops = 67.0,
    .tc16_dense_tflops = 1979.0 / 2,
    .tc16_sparse_tflops = 1979.0,
    .hbm_tbs = 4.8,
    .l2_tbs = HOPPER_L2_TBS,
    .smem_bytes_per_clk = 128,
};

double pw_gpu_peak_tflops(const pw_gpu *g, int tensor)
{
    return tensor ? g->tc16_dense_tflops : g->fp32_tflops;
}

/* A count the model can use: finite and not negative. */
static int usable(double x) { return isfinite(x) && x >= 0; }
/* A rate the model can divide by. */
static int positive(double x) { return isfinite(x) && x > 0; }

pw_gpu_time pw_gpu_model(const pw_gpu *g, const pw_gpu_work *w)
{
    pw_gpu_time t = { NAN, NAN, NAN, NAN, NAN, NAN, "invalid" };
    if (!g || !w)
        return t;
    if (!usable(w->flops) || !usable(w->warp_instructions) || !usable(w->global_sectors) ||
        !usable(w->shared_wavefronts) || !usable(w->dram_bytes))
        return t;
    double peak = pw_gpu_peak_tflops(g, w->tensor);
    double clock_hz = g->clock_ghz * 1e9;
    if (g->sms <= 0 || !positive(clock_hz) || !positive(peak) || !positive(g->fp32_tflops) || !positive(g->hbm_tbs) ||
        !positive(g->l2_tbs))
        return t;

    /* Each SM has 4 warp schedulers, one warp instruction each a clock. A
     * SIMT rung also issues one FFMA per 32 lanes x 2 flops: flops / 64 warp
     * instructions, whose issue time flops / 64 / (sms x 4 x clock) is
     * flops / (sms x 128 x 2 x clock) = flops / the fp32 peak. That is the
     * datasheet identity (66.9 = "67"), and the model takes the datasheet's
     * side of it, so an FFMA-only kernel ties with t_fp (and is named fp32)
     * instead of turning issue-bound on the rounding of 66.9 to 67. Any
     * other instruction then makes a SIMT kernel issue-bound: on Hopper an
     * FFMA takes a scheduler's whole issue slot, so every load, address
     * computation or shuffle is a clock of FMAs lost. A Tensor Core rung's
     * mma instructions are already among the counted ones. */
    double ffma_s = w->tensor ? 0 : w->flops / (g->fp32_tflops * 1e12);
    t.t_fp = w->flops / (peak * 1e12);
    t.t_issue = w->warp_instructions / (g->sms * 4.0 * clock_hz) + ffma_s;
    t.t_shared = w->shared_wavefronts / (g->sms * clock_hz);     /* one 128-byte wavefront per SM a clock */
    t.t_l2 = w->global_sectors * 32 / (g->l2_tbs * 1e12);
    t.t_dram = w->dram_bytes / (g->hbm_tbs * 1e12);

    /* The largest term binds; on a tie the first listed wins (compute first:
     * the roof a kernel aims for). */
    const double terms[] = { t.t_fp, t.t_issue, t.t_shared, t.t_l2, t.t_dram };
    const char *names[] = { w->tensor ? "tensor" : "fp32", "issue", "shared", "l2", "dram" };
    int best = 0;
    for (int i = 1; i < 5; i++)
        if (terms[i] > terms[best]) best = i;
    t.t_s = terms[best];
    t.bound = t.t_s > 0 ? names[best] : "none";
    return t;
}
