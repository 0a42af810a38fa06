/* exercises/08-cuda-warps/block_sum.h: what exercise 8.1 asks you to write.
 * Your exercises/08-cuda-warps/block_sum.cu implements both; the checker
 * (check_block_sum.c) and the solution include this same header. */
#ifndef PW_EX_BLOCK_SUM_H
#define PW_EX_BLOCK_SUM_H

#include "simt.h"

/* partial[b] = in[b*B] + ... + in[b*B + B-1] (elements past n count as 0),
 * where B = blockDim.x, a power of two from 32 to 1024. Shared memory:
 * B floats (dynamic). Every input element is read from global memory once. */
__global__ void block_sum(const float *in, float *partial, int n);

/* Launch block_sum on n elements (device pointers) with `block` threads per
 * block: as many blocks as it takes, and B floats of shared memory. */
PW_SIMT_EXTERN_C void block_sum_launch(const float *d_in, float *d_partial, int n, int block);

#endif
