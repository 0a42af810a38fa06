/* exercises/09-tensor-cores/flash.h: what exercise 9.5 asks you to write.
 * Your exercises/09-tensor-cores/flash.cu implements both; the checker
 * (check_flash.c, in C) and the solution include this same header.
 *
 * Attention for one head, the FlashAttention way (Dao et al., 2022; the
 * loop order of FlashAttention-2, 2023): O = softmax(Q K^T / sqrt(d)) V,
 * without ever holding the n x n matrix of scores anywhere. A block of
 * FLASH_BR threads owns FLASH_BR query rows (one each) and walks over the
 * keys FLASH_BC at a time, staging each tile of K and V in shared memory;
 * each thread folds the tile's scores into its row's running max and sum
 * (exercise 6.3's online softmax) and into its row of the output. */
#ifndef PW_EX_FLASH_H
#define PW_EX_FLASH_H

#include "simt.h"

#define FLASH_BR 32      /* query rows per block, one thread each: blockDim = (FLASH_BR, 1, 1) */
#define FLASH_BC 32      /* keys per tile of K and V */
#define FLASH_MAX_D 64   /* the largest head dimension d the kernel takes */

/* Q, K, V are n x d, row-major floats (row i of Q is Q[i * d .. i * d + d - 1]),
 * n >= 1, 1 <= d <= FLASH_MAX_D. Writes
 *     O[i][c] = sum_j w_ij V[j][c],   w_ij = exp(s_ij - L[i]),   s_ij = (Q[i] . K[j]) / sqrt(d)
 *     L[i]    = log sum_j exp(s_ij)   (the row's log-sum-exp: max + log(sum), what a backward pass keeps)
 * Block b computes rows b FLASH_BR .. b FLASH_BR + FLASH_BR - 1 (those < n).
 * Device memory: Q, K, V read, O (n x d) and L (n) written, and nothing
 * else: no n x n buffer of scores, no second pass over K. */
#ifdef __cplusplus
__global__ void flash(const float *Q, const float *K, const float *V, float *O, float *L, int n, int d);
#endif

/* Launch flash on device pointers: enough blocks of FLASH_BR threads for n rows. */
PW_SIMT_EXTERN_C void flash_launch(const float *dQ, const float *dK, const float *dV, float *dO, float *dL, int n,
                                   int d);

#endif
