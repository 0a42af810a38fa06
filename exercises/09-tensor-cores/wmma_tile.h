/* exercises/09-tensor-cores/wmma_tile.h: what exercise 9.2 asks you to write.
 * Your exercises/09-tensor-cores/wmma_tile.cu implements both; the checker
 * (check_wmma_tile.c, in C) and the solution include this same header. */
#ifndef PW_EX_WMMA_TILE_H
#define PW_EX_WMMA_TILE_H

#include "simt.h"

#ifdef __cplusplus
#include <cuda_fp16.h>
typedef __half ex09_half;
#else
typedef unsigned short ex09_half;   /* C (the checker) sees the 16 bits of each IEEE binary16 */
#endif

#define WMMA_TILE_WARPS 4   /* warps per block: blockDim = (32, WMMA_TILE_WARPS) */

/* C = A B, all row-major: A is M x K, B is K x N (__half), C is M x N
 * (float), with M, N and K multiples of 16 (the caller pads). Warp w of
 * block (bx, by) computes the 16 x 16 tile of C at row 16 (by
 * WMMA_TILE_WARPS + w), column 16 bx, with Tensor Core fragments (wmma). */
#ifdef __cplusplus
__global__ void wmma_tile(const __half *A, const __half *B, float *C, int M, int N, int K);
#endif

/* Launch wmma_tile on device pointers: enough blocks for every tile of C. */
PW_SIMT_EXTERN_C void wmma_tile_launch(const ex09_half *dA, const ex09_half *dB, float *dC, int M, int N, int K);

#endif
