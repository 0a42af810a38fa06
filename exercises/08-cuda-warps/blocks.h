/* exercises/08-cuda-warps/blocks.h: what puzzle 8.10 asks you to write. */
#ifndef PW_EX_BLOCKS_H
#define PW_EX_BLOCKS_H

#include "simt.h"

/* out[i] = a[i] + 10 for i < n, one thread per element, in several blocks:
 * each block has fewer threads than there are elements, and the last block
 * may have threads to spare. */
__global__ void blocks(const float *a, float *out, int n);

/* Yours to write too: the launch, blocks of exactly `block` threads (the
 * checker picks it), as few blocks as cover the n elements. */
PW_SIMT_EXTERN_C void blocks_launch(const float *d_a, float *d_out, int n, int block);

#endif
