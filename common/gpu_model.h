/* common/gpu_model.h: a GPU described by a data file, and the time a kernel
 * would take on it, modelled from the work the emulator counted (version 2).
 *
 * The emulator's own time means nothing; its counts are exact. This turns the
 * counts of one kernel launch into a prediction for a real GPU, in three
 * layers, each from the device file (common/gpus/NAME.gpu) or the counts:
 *
 * 1. Throughput: each resource gets a time, its work / its rate.
 *      t_fp    = flops / peak                    fp32_tflops, or tc16_dense_tflops
 *      t_issue = (warp instructions + FFMAs)     FFMAs = flops / 64 on SIMT rungs
 *                / (sms x schedulers x clock)    (32 lanes x 2 flops a warp FFMA)
 *      t_l1    = (shared wavefronts + global     one 128-byte wavefront per SM a
 *                 lines) / (sms x clock)         clock: the L1/shared data path; a
 *                                                global request costs one per
 *                                                distinct 128-byte line it touches
 *      t_l2    = L2 sectors x 32 / l2_gbs        the sectors a block loads for the first
 *                                                time, and its stores: an L1 that keeps
 *                                                all its block loaded while it runs
 *      t_dram  = dram_bytes / dram_gbs           compulsory traffic
 *    fp, issue and l1 are the SM's own: they are paid block by block, wave by
 *    wave (below); l2 and dram are the chip's, paid once for the whole grid.
 *
 * 2. Occupancy (CUDA's own calculation, cuda_occupancy.h): how many blocks
 *    an SM holds at once, limited by warps, blocks, registers (allocated per
 *    warp in units of reg_alloc_unit, per sub-partition) or shared memory
 *    (per block: static + dynamic + the driver's reserve, rounded up to
 *    smem_alloc_unit). Waves: the grid's blocks over (blocks per SM x sms),
 *    rounded up; the last wave may be partly empty (the tail).
 *
 * 3. Latency (Little's law): a warp's global loads come in rounds (the
 *    emulator counts them: the loads between two barriers, or one pass of a
 *    loop, are one round: they are independent, the next round needs them).
 *    A round waits the memory latency L (L2's, or DRAM's for the share of the
 *    loads DRAM must serve) before the warp can compute on it. R rounds in a
 *    row make a chain: R x L + T_c, where T_c is the work that cannot overlap
 *    the waits: a block's whole busy time T (on the SM's most loaded
 *    resource) when its rounds end at a barrier (every warp waits for the
 *    block's loads, then all compute), else one warp's share, T x
 *    schedulers / warps (a warp issues from one scheduler; its block-mates
 *    compute while it waits), and at each barrier one shared-memory latency
 *    (the barrier waits for the block's shared traffic before it to land).
 *    b blocks sharing an SM take b x T when that is
 *    longer than the chain (the others compute while one waits). So a wave
 *    takes max(b T, R L + T_c), and the SM's time is the sum over its waves.
 *    That is Little's law: the SM keeps b x warps x (loads per round)
 *    requests in flight, and a latency L sustains in-flight / L of them a
 *    second.
 *
 *    t_s = max(sum over waves of max(b T, R L + T_c), t_l2, t_dram)
 *
 *    The binding term is named: fp32 / tensor, issue, l1, latency, l2, dram.
 *
 * What the model is not: no register-bank conflicts, no integer or address
 * instructions (the emulator sees memory accesses, not ALU work), no L1 shared
 * between the blocks of an SM and no L1 capacity (a block's reloads all hit,
 * other blocks' never), no L2 capacity (DRAM moves each matrix once, the
 * latency of a round is L2's plus DRAM's share of the loads), no clock throttling
 * (the boost clock the datasheet quotes), no overlap of shared-memory latency
 * beyond what T covers. README (chapter 09) says what each omission costs on
 * the published SGEMM ladder.
 */
#ifndef PW_GPU_MODEL_H
#define PW_GPU_MODEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One GPU, as its device file gives it. Every figure has a cited source in
 * the file (common/gpus/README.md: the format). */
typedef struct {
    char name[64];                /* "RTX A6000" */
    char key[64];                 /* the file's stem: "rtx-a6000" (what --device takes) */
    char arch[16];                /* "sm_86": ptxas's target for its register counts */
    char path[512];               /* the file it was read from */
    int sms;                      /* streaming multiprocessors */
    double clock_ghz;             /* the boost clock the FP32 peak is quoted at */
    double fp32_tflops;           /* SIMT FP32 peak (datasheet) */
    int fp32_lanes_per_sm;        /* 128 (GA102, Hopper), 64 (A100) */
    int schedulers_per_sm;        /* warp schedulers, one warp instruction a clock each */
    double tc16_dense_tflops;     /* FP16/BF16 Tensor Core, dense, FP32 accumulate; 0: none */
    double tc16_sparse_tflops;    /* the datasheet's "with sparsity" figure; 0: none quoted */
    double dram_gbs;              /* DRAM bandwidth, GB/s */
    double l2_gbs;                /* L2 bandwidth, GB/s (a microbenchmark's figure) */
    double l2_mb;                 /* L2 size, MB */
    double l1_bytes_per_clk;      /* L1/shared data path per SM a clock (128: 32 banks x 4 bytes) */
    int max_threads_per_block;    /* 1024 */
    int max_warps_per_sm;         /* resident warps per SM */
    int max_blocks_per_sm;        /* resident blocks per SM */
    int regs_per_sm;              /* 32-bit registers per SM */
    int regs_per_block;           /* the most one block may use */
    int max_regs_per_thread;      /* 255 */
    int reg_alloc_unit;           /* registers are given to a warp in units of this (256) */
    int smem_per_sm;              /* bytes: the largest shared-memory carve-out of an SM */
    int smem_per_block;           /* bytes: the most one block may use (opt-in) */
    int smem_reserved_per_block;  /* bytes the driver keeps per block (1024 from sm_80) */
    int smem_alloc_unit;          /* bytes: shared memory is given in units of this */
    double lat_dram_cycles;       /* latency of a load that misses L2 (cycles at clock_ghz) */
    double lat_l2_cycles;         /* ... that hits L2 */
    double lat_smem_cycles;       /* ... of shared memory */
    double lat_ffma_cycles;       /* dependent-issue latency of an FFMA */
} pw_gpu;

/* ---- device files ------------------------------------------------------------------------- */

/* Reads one device file into *g. 0 on success; else -1 with one line in err
 * ("FILE:LINE: unknown key 'smz'", "FILE: missing 'sms'", ...). */
int pw_gpu_load(const char *path, pw_gpu *g, char *err, size_t errlen);

/* A device by name or path: "h100-sxm" (a file of the devices folder, the
 * ".gpu" optional) or a path to a file ("./my-gpu.gpu", anything with a '/').
 * The folder: $PW_GPU_DIR if set, else the source tree's common/gpus. 0 on
 * success; else -1 with one line in err (an unknown name lists the known). */
int pw_gpu_find(const char *name_or_path, pw_gpu *g, char *err, size_t errlen);

/* The devices folder, and the stems of its files in order ("a100-sxm",
 * "h100-sxm", ...): up to cap of them; returns how many there are. */
const char *pw_gpu_dir(void);
int pw_gpu_list(char names[][64], int cap);

/* For a program's --device: pw_gpu_find, and on failure the message on
 * stderr prefixed by prog and exit 2 (a usage error). */
void pw_gpu_find_or_exit(const char *prog, const char *name_or_path, pw_gpu *g);

/* The default device of the GPU chapters. */
#define PW_GPU_DEFAULT "h100-sxm"

/* The device file that describes the GPU CUDA calls cuda_name (its
 * cudaDeviceProp name: "NVIDIA H100 80GB HBM3" gives "h100-sxm"), or
 * PW_GPU_DEFAULT for a GPU no file describes. */
const char *pw_gpu_stem_for(const char *cuda_name);

/* ---- occupancy and waves ---------------------------------------------------------------- */

typedef struct {
    int threads_per_block;        /* the launch's block */
    int regs_per_thread;          /* ptxas's count (or an estimate: regs_estimated = 1) */
    int smem_per_block;           /* bytes: static + dynamic shared memory */
    int regs_estimated;           /* 1: regs_per_thread is an estimate, not ptxas's */
} pw_gpu_launch;

typedef struct {
    int by_warps, by_blocks, by_regs, by_smem;   /* resident blocks each resource allows */
    int blocks_per_sm;            /* the least of them (0: the block cannot run) */
    int warps_per_sm;             /* blocks_per_sm x warps per block */
    double occupancy;             /* warps_per_sm / max_warps_per_sm */
    const char *limit;            /* "warps", "blocks", "registers", "shared memory"; on a tie the
                                     first listed; "too big" when 0 (why: pw_gpu_occupancy's err) */
} pw_gpu_occ;

/* CUDA's occupancy calculation for one launch on g (as cuda_occupancy.h's
 * cudaOccMaxActiveBlocksPerMultiprocessor, default cache configuration, the
 * largest shared-memory carve-out). A launch that cannot run (a block over
 * 1024 threads, over the register or shared-memory limits) gives
 * blocks_per_sm 0 and a reason in err when err is not NULL. */
pw_gpu_occ pw_gpu_occupancy(const pw_gpu *g, const pw_gpu_launch *l, char *err, size_t errlen);

/* Waves of a grid of `blocks` blocks when the GPU holds `resident` (= blocks
 * per SM x sms) at once: ceil(blocks / resident); 0 for no blocks. */
double pw_gpu_waves(double blocks, double resident);

/* ---- the model ---------------------------------------------------------------------------- */

typedef struct {                  /* the counted work of one kernel launch (counts scaled to the modelled size) */
    double flops;                 /* 2 m n k for a GEMM; any flops otherwise */
    int tensor;                   /* 1: the flops run on Tensor Cores (peak tc16_dense), else SIMT FP32 FMAs */
    double warp_instructions;     /* counted warp instructions: memory requests, collectives, mma_ops; the
                                     model adds flops / 64 FFMAs for SIMT work */
    double global_sectors;        /* 32-byte sectors of global loads and stores (what L1 handles) */
    double l2_sectors;            /* ... of them that L2 serves: the stores, and the loads of sectors the block
                                     had not loaded before (an L1 that keeps what its block loaded); 0: all of
                                     global_sectors (no L1 hits) */
    double global_lines;          /* 128-byte lines of global requests, summed per request (L1 wavefronts) */
    double global_load_bytes;     /* bytes L2 sends the global loads (their L2 sectors x 32): Little's law */
    double shared_wavefronts;     /* shared-memory wavefronts (bank conflicts included) */
    double dram_bytes;            /* compulsory DRAM traffic */
    double blocks;                /* the grid's blocks */
    double rounds;                /* dependent rounds of global loads per warp (mean over warps) */
    double barriers;              /* __syncthreads passed, summed over blocks: a round that ends at one holds
                                     the whole block (its warps wait together); others, one warp */
    pw_gpu_launch launch;         /* block size, registers, shared memory */
} pw_gpu_work;

enum { PW_GPU_NTERMS = 7 };
typedef struct {
    double t_s;                   /* the model's time */
    double t_fp, t_issue, t_l1, t_latency, t_l2, t_dram;
    /* t_fp, t_issue, t_l1: the SM's busiest share of each, wave by wave (sum over waves of b x T_x);
       t_latency: the chain of one block per wave (sum over waves of R L + T_c) */
    double t_throughput;          /* version 1 of the model, kept for comparison: max(fp, issue, shared
                                     wavefronts, every global sector at L2, dram) over the whole GPU, with
                                     no occupancy, latency, waves or global lines in L1 */
    const char *bound;            /* "fp32"/"tensor", "issue", "l1", "latency", "l2", "dram" (the largest term);
                                     "none" for no work, "invalid" for bad input, "cannot run" for a launch
                                     that does not fit an SM */
    const char *next;             /* the second largest term's name */
    double next_s;                /* ... and its time */
    pw_gpu_occ occ;
    double waves;                 /* ceil(blocks / (blocks_per_sm x sms)) */
    double tail;                  /* blocks in the last wave / the GPU's resident blocks (1: no tail) */
    double latency_cycles;        /* L: the round's latency the model used */
    double inflight_bytes_per_sm; /* Little's law: bytes of loads an SM keeps in flight (b x warps x round) */
    double needed_bytes_per_sm;   /* ... and what the DRAM bandwidth x its latency needs per SM */
} pw_gpu_time;

/* The modelled time of work w on g. A count that is negative, NaN or
 * infinite (or a device with a zero rate) gives every time NaN and bound
 * "invalid"; work of all zeros takes 0 s, bound "none". A launch that does
 * not fit an SM gives NaN and bound "cannot run". Work with no launch
 * (blocks 0 or threads_per_block 0) gets the throughput terms only. */
pw_gpu_time pw_gpu_model(const pw_gpu *g, const pw_gpu_work *w);

/* The peak the flops are measured against, TFLOP/s: fp32_tflops, or
 * tc16_dense_tflops when tensor is nonzero (never the sparse figure: a dense
 * GEMM cannot use 2:4 sparsity). */
double pw_gpu_peak_tflops(const pw_gpu *g, int tensor);

/* The time's terms by name, in the order of pw_gpu_time, for tables:
 * names[i] and values[i], i < PW_GPU_NTERMS - 1 (fp, issue, l1, latency,
 * l2, dram). */
int pw_gpu_terms(const pw_gpu_time *t, int tensor, const char *names[], double values[]);

#ifdef __cplusplus
}
#endif

#endif
