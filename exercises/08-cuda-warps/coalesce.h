/* exercises/08-cuda-warps/coalesce.h: what puzzle 8.18 asks you to write. */
#ifndef PW_EX_COALESCE_H
#define PW_EX_COALESCE_H

#include "simt.h"

/* Threads per block of the given launch: 4 warps. */
#define COALESCE_BLOCK 128

/* out = in for a rows x cols matrix of floats stored row by row (element
 * (r, c) at index r * cols + c), every element read once and written once,
 * with the warps' requests coalesced: the lanes of one request touch
 * consecutive floats, so 32 lanes move 128 bytes in 4 sectors of 32 bytes. */
__global__ void coalesce(const float *in, float *out, int rows, int cols);

/* Given (do not change it): one thread per row, rounded up to whole blocks
 * of COALESCE_BLOCK threads: ceil(rows / 128) blocks of 128. */
PW_SIMT_EXTERN_C void coalesce_launch(const float *d_in, float *d_out, int rows, int cols);

#endif
