/* common/gpu_regs.h: registers per thread (and static shared memory) of a
 * CUDA kernel on a GPU architecture, as ptxas reports them: what the GPU
 * model's occupancy needs (pw_gpu_launch.regs_per_thread, common/gpu_model.h).
 *
 * The counts come from a table made by tools/kernel-resources.sh (nvcc
 * -cubin -Xptxas -v for each kernel file and arch), tab-separated:
 *
 *   # nvcc 13.0 (V13.0.88)             '#' lines: what made it, and when
 *   # date 2026-12-02
 *   sm_90  gg_wmma_shared<__half>  80  27136  kernels/gemm_gpu.cu
 *   (arch, kernel, regs, static_smem_bytes, file)
 *
 * Two tables, looked in in this order:
 *   1. $(BUILD)/gen/registers.tsv: this build's ptxas, where nvcc is found
 *      (mk/regs.mk makes it, again whenever a kernel file changes);
 *   2. common/gpus/registers.tsv: the committed table, made by the same tool,
 *      for machines without nvcc.
 * Their paths are baked in at compile time (mk/regs.mk); $PW_REGS_BUILD and
 * $PW_REGS_COMMITTED, when set, replace them (an empty value: no such table).
 * A kernel in neither gets an estimate, and says so.
 */
#ifndef PW_GPU_REGS_H
#define PW_GPU_REGS_H

#include "gpu_model.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { PW_REGS_PTXAS_BUILD, PW_REGS_PTXAS_COMMITTED, PW_REGS_ESTIMATE } pw_regs_source;

/* The estimate for a kernel no table has on any arch: the CUDA Occupancy
 * Calculator's starting value. At 32 registers a thread, registers never
 * limit occupancy on sm_80/sm_90 (65536 registers / 2048 threads = 32), so
 * the estimate leaves the other limits (warps, blocks, shared memory) to
 * decide; every kernel of kernels/warps.cu, the size of an exercise's
 * kernel, needs 8-30 (common/gpus/registers.tsv), the register-tiled GEMMs
 * 48-127. */
#define PW_REGS_ESTIMATE_DEFAULT 32

/* Registers per thread and static shared memory ptxas reported for kernel on
 * arch ("sm_90"). kernel is the name as the emulator gives it
 * (pw_simt_config.name: the source text before <<<, e.g.
 * "gg_wmma_shared<__half>", or "gg_warptile<BM,BN,BK>" with symbolic
 * template arguments). It is matched, spaces removed:
 *   exactly, else by its base name (before '<'): when every row of that base
 *   name on arch agrees, that count; else the largest (the note says so).
 * Looks in this build's table, then the committed one. Not found on arch: an
 * estimate (PW_REGS_ESTIMATE): the same kernel's count on the nearest arch a
 * table has it on (the largest below arch, else the smallest above: the same
 * source on a close ISA), else PW_REGS_ESTIMATE_DEFAULT registers and 0 bytes.
 * Returns the source; *regs and *static_smem are set (each pointer may be
 * NULL); note (may be NULL) gets a short phrase for a table footer:
 *   "ptxas, this build (nvcc 13.0)"
 *   "ptxas, committed table (nvcc 13.0, 2026-12-02)"
 *   "ptxas, this build (nvcc 13.0); largest of 2 instantiations of gg_wmma_shared<>"
 *   "estimate: sm_86's ptxas count (sm_89 not in ptxas's table)"
 *   "estimate: not in ptxas's table (32, the occupancy calculator's default)"
 * A table's malformed lines are skipped, and the note says so. */
pw_regs_source pw_gpu_kernel_regs(const char *arch, const char *kernel, int *regs, int *static_smem,
                                  char *note, size_t notelen);

/* The launch the GPU model needs (common/gpu_model.h's pw_gpu_launch) of a
 * kernel of `threads` threads a block and `smem` shared bytes, its registers
 * looked up as above for arch. Returns the registers' source. */
pw_regs_source pw_gpu_launch_of(const char *arch, const char *kernel, int threads, int smem, pw_gpu_launch *launch,
                                char *note, size_t notelen);

/* ---- one table (the parts of pw_gpu_kernel_regs, for tests and tools) ----------------- */

typedef struct {
    int regs;                  /* ptxas's registers per thread (the largest of the rows matched) */
    int static_smem;           /* bytes of static shared memory (likewise) */
    int rows;                  /* rows matched: 1 for an exact match of one row */
    int by_base;               /* 1: matched by the base name, not exactly */
    int agree;                 /* 1: every row matched had the same counts */
    char nvcc[32];             /* the table's "# nvcc 13.0 (...)": "13.0"; "" if it does not say */
    char date[32];             /* its "# date 2026-12-02"; "" if it does not say */
    int bad_lines;             /* malformed lines skipped */
    int first_bad_line;        /* the first of them (1-based), 0 if none */
} pw_regs_hit;

/* Looks up kernel on arch in the table at path (matched as pw_gpu_kernel_regs
 * says). 1: found, *hit filled; 0: not in the table (hit's nvcc, date and
 * bad_lines still filled); -1: the file cannot be read. */
int pw_gpu_regs_lookup(const char *path, const char *arch, const char *kernel, pw_regs_hit *hit);

/* The arch nearest to arch on which the table at path has kernel (exactly
 * or by base name): the largest below it, else the smallest above; written
 * to out. 1: found; 0: on no arch; -1: unreadable. */
int pw_gpu_regs_nearest_arch(const char *path, const char *arch, const char *kernel, char *out, size_t outlen);

/* The tables pw_gpu_kernel_regs reads: this build's and the committed one
 * (after $PW_REGS_BUILD / $PW_REGS_COMMITTED; "" when switched off). */
const char *pw_gpu_regs_build_table(void);
const char *pw_gpu_regs_committed_table(void);

#ifdef __cplusplus
}
#endif

#endif
