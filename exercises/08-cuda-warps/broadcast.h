/* exercises/08-cuda-warps/broadcast.h: what puzzle 8.9 asks you to write. */
#ifndef PW_EX_BROADCAST_H
#define PW_EX_BROADCAST_H

#include "simt.h"

/* a is a column of rows numbers, b a row of cols numbers, out a rows x cols
 * matrix stored row by row: out(r, c) = out[r * cols + c] = a[r] + b[c]
 * for r < rows, c < cols. One 2D block, as in 8.8: threadIdx.x is the
 * column, threadIdx.y the row, and the block is at least cols x rows. */
__global__ void broadcast(const float *a, const float *b, float *out, int rows, int cols);

/* Given (do not change it): one block of bx x by threads, bx >= cols and
 * by >= rows (the checker picks them), bx * by <= 1024. */
PW_SIMT_EXTERN_C void broadcast_launch(const float *d_a, const float *d_b, float *d_out, int rows, int cols, int bx,
                                       int by);

#endif
