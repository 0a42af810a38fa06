/* exercises/09-tensor-cores/reg_tile.cu: exercise 9.4, a GEMM with 2D
 * register tiles (rung 5 of the chapter's ladder).
 *
 * The task: C = A B in fp32 where each thread computes TM x TN outputs. A
 * block stages a BM x BK tile of A and a BK x BN tile of B in shared memory,
 * as in 9.1; then, for each p of the tile, every thread loads TM values of A
 * (its rows, column p) and TN values of B (row p, its columns) into
 * registers and does their TM x TN products: an outer product. Why it is a
 * lesson: 9.1's kernel reads both operands of every FMA from shared memory,
 * 2 shared loads per FMA, and shared memory (one 128-byte wavefront a clock
 * per SM) becomes its limit; a register tile reads (TM + TN) / (TM TN)
 * per FMA, 0.25 for 8 x 8, because each value of A in a register serves TN
 * FMAs and each of B TM.
 *
 * The interface (reg_tile.h):
 *   __global__ void reg_tile(const float *A, const float *B, float *C, int m, int n, int k);
 *     - row-major: A is m x k, B is k x n, C is m x n; any sizes >= 1, so
 *       tiles are partial on every edge and k need not be a multiple of BK;
 *       nothing past an edge may be read or written (the buffers are
 *       exactly the matrices' size); every thread reaches every barrier;
 *     - blocks of (BM/TM)(BN/TN) threads, TM x TN outputs each.
 *   void reg_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k);
 *     - device pointers; one launch, ceil(m/BM) x ceil(n/BN) blocks.
 *   reg_tile_shape reg_tile_tiles(void);
 *     - the tile sizes below (written for you). You may change them within
 *       the rules of reg_tile.h (BM, BN divide 128, BK divides 32, whole
 *       warps, at most 1024 threads): the checker prints the model's time
 *       for what you choose.
 *
 * What the checker tries (check_reg_tile.c), on the SIMT emulator:
 * m x n x k = 17 x 33 x 9, 65 x 31 x 47, 129 x 127 x 130, 1 x 1 x 1, then
 * 128 x 128 x 128 and 128 x 128 x 160: every element exactly (whole-number
 * inputs). Then the speed bar: your kernel, the ladder's rung 3 (9.1's
 * shared-memory tiles) and rung 5 (2D register tiles), counted at 128 and
 * modelled on an H100 SXM at 4096^3 (common/gpu_model.h: modelled, not
 * measured); yours must win at least 60% of rung 5's modelled advantage
 * over rung 3: t_3 - t_yours >= 0.6 (t_3 - t_5). It prints the three times
 * and each kernel's shared loads and wavefronts per FMA.
 * Budget: about 40 lines of code.
 *
 *   make ex-9.4      grade this file (each failure is explained)
 *   make hint-9.4    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/09-tensor-cores/reg_tile.cu: try first.
 */
#include "exercise.h"
#include "reg_tile.h"

#define BM 128   /* the block's tile of C: BM rows x BN columns */
#define BN 128
#define BK 8     /* the k step: A's tile is BM x BK, B's BK x BN, both in shared memory */
#define TM 8     /* one thread's outputs: TM rows x TN columns of C */
#define TN 8
#define THREADS ((BM / TM) * (BN / TN))   /* 256: threads of a block */

__global__ void reg_tile(const float *A, const float *B, float *C, int m, int n, int k)
{
    /* TODO: the kernel. A start (the layout the hints use):
     *     __shared__ float As[BM * BK];   As[r * BK + p]: row r of the block's rows of A, column t + p
     *     __shared__ float Bs[BK * BN];   Bs[p * BN + c]: row t + p of B, column c of the block's columns
     *     int tid = threadIdx.x;
     *     int tr = tid / (BN / TN), tc = tid % (BN / TN);   this thread's outputs: rows tr*TM.., columns tc*TN..
     *     int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
     * then TM x TN accumulators; for each step t of k: the block fills As
     * and Bs (each thread several elements, zeros past the edges), a
     * barrier, then for each p < BK: TM values of A and TN of B into
     * registers and their TM x TN products; a barrier before the next step
     * overwrites the tiles. Then store the outputs that are inside C.
     * Then delete the placeholder line below. */
    (void)A; (void)B; (void)C; (void)m; (void)n; (void)k;
}

void reg_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k)
{
    /* TODO: the launch. Then delete the placeholder lines below. */
    (void)dA; (void)dB; (void)dC; (void)m; (void)n; (void)k;
    PW_NOT_YET_IMPLEMENTED();
}

reg_tile_shape reg_tile_tiles(void)
{
    reg_tile_shape s = { BM, BN, BK, TM, TN };
    return s;
}
