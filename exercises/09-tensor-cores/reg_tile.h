/* exercises/09-tensor-cores/reg_tile.h: what exercise 9.4 asks you to write.
 * Your exercises/09-tensor-cores/reg_tile.cu implements all three; the
 * checker (check_reg_tile.c) and the solution include this same header.
 *
 * The tile sizes are yours to choose (the skeleton starts from the ladder's
 * rung 5: 128 x 128 x 8 tiles, 8 x 8 outputs a thread), within these rules,
 * which the checker tests before anything runs:
 *   BM, BN   the block's tile of C, rows x columns: each divides 128
 *            (16, 32, 64 or 128; the checker counts at 128 and scales the
 *            counts to 4096, exactly when the tiles divide both);
 *   BK       the step along k (the depth of the shared tiles): divides 32
 *            (1, 2, 4, 8, 16 or 32: the checker's second count is at
 *            k = 128 + 32);
 *   TM, TN   the outputs of one thread, rows x columns: TM divides BM, TN
 *            divides BN;
 *   threads  (BM / TM) (BN / TN) a block, a multiple of 32 (whole warps)
 *            and at most 1024.
 * One launch of reg_tile, one block per BM x BN tile of C: the checker
 * compares the blocks and threads it counts with these. */
#ifndef PW_EX_REG_TILE_H
#define PW_EX_REG_TILE_H

#include "simt.h"

typedef struct {
    int bm, bn;   /* the block's tile of C: rows, columns */
    int bk;       /* the k step: the tiles of A (bm x bk) and B (bk x bn) in shared memory */
    int tm, tn;   /* one thread's outputs: rows, columns (tm x tn accumulators in registers) */
} reg_tile_shape;

/* C = A B in fp32, all row-major: A is m x k, B is k x n, C is m x n, any
 * sizes >= 1. Each block computes one BM x BN tile of C from BM x BK tiles
 * of A and BK x BN tiles of B staged in shared memory; each thread computes
 * TM x TN outputs, from TM values of A and TN of B it holds in registers. */
__global__ void reg_tile(const float *A, const float *B, float *C, int m, int n, int k);

/* Launch reg_tile on device pointers: ceil(m/BM) x ceil(n/BN) blocks of
 * (BM/TM)(BN/TN) threads. */
PW_SIMT_EXTERN_C void reg_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k);

/* The tile sizes reg_tile uses (the checker checks them against the launch,
 * prints them, and charges your kernel the registers its TM x TN
 * accumulators need in the model's occupancy). */
PW_SIMT_EXTERN_C reg_tile_shape reg_tile_tiles(void);

#endif
