/* exercises/08-cuda-warps/matmul.h: what puzzle 8.17 asks you to write. */
#ifndef PW_EX_MATMUL_H
#define PW_EX_MATMUL_H

#include "simt.h"

/* C = A B for n x n matrices, row-major (A[r][k] is A[r * n + k]). Blocks
 * of T x T threads (T = blockDim.x = blockDim.y) on a grid of ceil(n / T)
 * x ceil(n / T): thread (x, y) of block (bx, by) computes C[by T + y][bx T
 * + x] when both are < n. Each block gets 2 T T floats of dynamic shared
 * memory: room for a T x T tile of A and one of B. */
__global__ void matmul(const float *A, const float *B, float *C, int n);

/* Given (do not change it): dim3(ceil(n / tile), ceil(n / tile)) blocks of
 * dim3(tile, tile) threads, 2 * tile * tile * sizeof(float) bytes of
 * dynamic shared memory each; tile * tile <= 1024. */
PW_SIMT_EXTERN_C void matmul_launch(const float *d_A, const float *d_B, float *d_C, int n, int tile);

#endif
