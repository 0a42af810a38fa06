/* common/gpu_model.h: a GPU described by its datasheet, and the time a
 * kernel would take on it, modelled from the work the emulator counted.
 *
 * The emulator's own time means nothing; its counts are exact. This turns the
 * counts of one kernel run into a roofline-style prediction for a real GPU:
 * each resource the kernel uses gets a time (its work / the resource's
 * rate), and the kernel is modelled to take as long as the slowest one.
 *
 *   t_fp     = flops / peak                         peak: fp32_tflops (SIMT) or
 *                                                   tc16_dense_tflops (Tensor Cores)
 *   t_issue  = warp_instructions                  each SM has 4 warp schedulers, each
 *              / (sms x 4 schedulers x clock)       issues one warp instruction a clock;
 *              + (tensor ? 0 : flops / fp32 peak)   a SIMT rung also issues one FFMA per
 *                                                   32 lanes x 2 flops = 64 flops, and
 *                                                   flops / 64 / (sms x 4 x clock) is
 *                                                   flops / (sms x 128 x 2 x clock): the
 *                                                   fp32 peak (66.9 = the datasheet's 67,
 *                                                   whose figure is used, so an FFMA-only
 *                                                   kernel ties with t_fp: "fp32")
 *   t_shared = shared_wavefronts / (sms x clock)    one 128-byte wavefront (32 banks x
 *                                                   4 bytes) per SM per clock
 *   t_l2     = global_sectors x 32 / l2_tbs         as if L1 caught nothing: an upper
 *                                                   bound on the L2 term
 *   t_dram   = dram_bytes / hbm_tbs                 compulsory traffic: each matrix once
 *   t_s      = the largest of the five; `bound` names it (on a tie, the
 *              one listed first).
 *
 * What the model is not: no latency, no occupancy, no overlap limits, no
 * tail effects, no clock throttling. It is the lesson's prediction, the
 * fastest the counted work could go; a GPU run, where one exists, checks it.
 *
 * Worked example (H100 SXM): 132 SMs x 4 x 1.98 GHz = 1.045e12 warp
 * instructions/s. A 4096^3 SGEMM does 1.37e11 flops: t_fp = 1.37e11 / 67e12
 * = 2.05 ms, and its FFMAs take the same 2.05 ms of issue. A naive kernel
 * that also loads A and B from global memory for every FMA issues two
 * loads per FFMA, 2 x 1.37e11 / 64 = 4.3e9 more instructions, 4.1 ms more:
 * issue-bound at 6.2 ms before memory is even counted. A SIMT kernel reaches
 * the fp32 peak only by issuing almost nothing but FFMAs (register tiling).
 *
 * (Dividing the FFMAs by the datasheet's 67 TFLOPS rather than by the
 * lanes x clock, 66.9, changes t_issue by 0.13%.)
 */
#ifndef PW_GPU_MODEL_H
#define PW_GPU_MODEL_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *name;             /* "H100 SXM", "H200 SXM" */
    const char *source;           /* the datasheet the figures come from (title + URL) */
    int sms;                      /* streaming multiprocessors */
    double clock_ghz;             /* boost clock the peaks are quoted at */
    double fp32_tflops;           /* SIMT FP32 (datasheet) */
    double tc16_dense_tflops;     /* FP16/BF16 Tensor Core, dense, FP32 accumulate: the datasheet's "with sparsity" figure / 2 */
    double tc16_sparse_tflops;    /* the datasheet's figure, 2:4 structured sparsity */
    double hbm_tbs;               /* HBM bandwidth, TB/s (datasheet) */
    double l2_tbs;                /* L2 bandwidth, TB/s: NOT on a datasheet; an assumption, stated where it comes from */
    double smem_bytes_per_clk;    /* shared memory/L1 bandwidth per SM per clock (128: 32 banks x 4 bytes) */
} pw_gpu;

/* The two devices, from NVIDIA's datasheets (gpu_model.c gives the
 * sources, the arithmetic that checks them, and where l2_tbs comes from). */
extern const pw_gpu pw_gpu_h100_sxm, pw_gpu_h200_sxm;

typedef struct {                  /* the counted work of one kernel run (counts scaled to the modelled size) */
    double flops;                 /* 2 m n k */
    int tensor;                   /* 1: the flops run on Tensor Cores (peak tc16_dense), else SIMT FP32 FMAs */
    double warp_instructions;     /* memory + collective warp instructions counted (requests + collectives + mma_ops);
                                     the model adds flops / 64 FFMA warp instructions for SIMT rungs */
    double global_sectors;        /* 32-byte sectors of global loads and stores */
    double shared_wavefronts;     /* shared-memory wavefronts (bank conflicts included) */
    double dram_bytes;            /* compulsory DRAM traffic: each matrix once */
} pw_gpu_work;

typedef struct {
    double t_s;                   /* the model's time: the largest of the terms below */
    double t_fp, t_issue, t_shared, t_l2, t_dram;
    const char *bound;            /* "fp32", "tensor", "issue", "shared", "l2", "dram": the largest term */
} pw_gpu_time;

/* The modelled time of work w on g. A count that is negative, NaN or
 * infinite (or a device with a zero rate) gives every time NaN and bound
 * "invalid"; work of all zeros takes 0 s, bound "none". */
pw_gpu_time pw_gpu_model(const pw_gpu *g, const pw_gpu_work *w);

/* The peak the flops are measured against, TFLOP/s: fp32_tflops, or
 * tc16_dense_tflops when tensor is nonzero (never the sparse figure: a dense
 * GEMM cannot use 2:4 sparsity). */
double pw_gpu_peak_tflops(const pw_gpu *g, int tensor);

#ifdef __cplusplus
}
#endif

#endif
