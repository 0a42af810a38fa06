/* exercises/09-tensor-cores/wmma_edges.h: what exercise 9.3 asks you to write.
 * Your exercises/09-tensor-cores/wmma_edges.cu implements both; the checker
 * (check_wmma_edges.c, in C) and the solution include this same header. */
#ifndef PW_EX_WMMA_EDGES_H
#define PW_EX_WMMA_EDGES_H

#include "simt.h"

#ifdef __cplusplus
#include <cuda_fp16.h>
typedef __half ex09_half;
#else
typedef unsigned short ex09_half;   /* C (the checker) sees the 16 bits of each IEEE binary16 */
#endif

#define WMMA_EDGES_WARPS 4   /* warps per block: blockDim = (32, WMMA_EDGES_WARPS) */

/* C = A B, all row-major, ANY sizes >= 1: A is m x k, B is k x n (__half),
 * C is m x n (float), no padding. Warp w of block (bx, by) computes the
 * 16 x 16 tile of C at row 16 (by WMMA_EDGES_WARPS + w), column 16 bx,
 * with Tensor Core fragments, staging its tiles of A and B through shared
 * memory (zeros past the edges) and its tile of C too (only the part inside
 * C is written). */
#ifdef __cplusplus
__global__ void wmma_edges(const __half *A, const __half *B, float *C, int m, int n, int k);
#endif

/* Launch wmma_edges on device pointers: enough blocks for every tile of C. */
PW_SIMT_EXTERN_C void wmma_edges_launch(const ex09_half *dA, const ex09_half *dB, float *dC, int m, int n, int k);

#endif
