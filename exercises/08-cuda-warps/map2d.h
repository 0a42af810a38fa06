/* exercises/08-cuda-warps/map2d.h: what puzzle 8.8 asks you to write. */
#ifndef PW_EX_MAP2D_H
#define PW_EX_MAP2D_H

#include "simt.h"

/* a and out are rows x cols matrices stored row by row: element (r, c) is
 * a[r * cols + c]. out(r, c) = a(r, c) + 10 for r < rows, c < cols. One 2D
 * block: threadIdx.x runs along a row (the column c), threadIdx.y down a
 * column (the row r), and the block has at least as many threads as the
 * matrix has columns in x and rows in y (usually more). */
__global__ void map2d(const float *a, float *out, int rows, int cols);

/* Given (do not change it): one block of bx x by threads, bx >= cols and
 * by >= rows (the checker picks them), bx * by <= 1024. */
PW_SIMT_EXTERN_C void map2d_launch(const float *d_a, float *d_out, int rows, int cols, int bx, int by);

#endif
