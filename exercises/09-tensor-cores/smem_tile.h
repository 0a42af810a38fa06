/* exercises/09-tensor-cores/smem_tile.h: what exercise 9.1 asks you to write.
 * Your exercises/09-tensor-cores/smem_tile.cu implements both; the checker
 * (check_smem_tile.c) and the solution include this same header. */
#ifndef PW_EX_SMEM_TILE_H
#define PW_EX_SMEM_TILE_H

#include "simt.h"

/* C = A B in fp32, all row-major: A is m x k, B is k x n, C is m x n, any
 * sizes >= 1. Each block computes one tile of C, staging the tiles of A and
 * B it needs through shared memory: every element it loads from global
 * memory is used by a whole row (or column) of the tile's threads. */
__global__ void smem_tile(const float *A, const float *B, float *C, int m, int n, int k);

/* Launch smem_tile on device pointers: as many blocks as tiles of C. */
PW_SIMT_EXTERN_C void smem_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k);

#endif
