/* exercises/08-cuda-warps/stencil.h: what exercise 8.3 asks you to write. */
#ifndef PW_EX_STENCIL_H
#define PW_EX_STENCIL_H

#include "simt.h"

/* The 5-point stencil of a rows x cols matrix (row-major):
 *   out[r][c] = in[r][c] + in[r-1][c] + in[r+1][c] + in[r][c-1] + in[r][c+1],
 * a neighbour outside the matrix counting as 0. Blocks of SX x SY threads
 * (blockDim), one output per thread; each block loads its tile and a
 * one-element halo into shared memory once: (SX+2) x (SY+2) floats of
 * dynamic shared memory. */
__global__ void stencil(const float *in, float *out, int rows, int cols);

/* Launch it with blocks of bx x by threads. */
PW_SIMT_EXTERN_C void stencil_launch(const float *d_in, float *d_out, int rows, int cols, int bx, int by);

#endif
