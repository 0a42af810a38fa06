/* exercises/08-cuda-warps/axis_sum.h: what puzzle 8.16 asks you to write. */
#ifndef PW_EX_AXIS_SUM_H
#define PW_EX_AXIS_SUM_H

#include "simt.h"

/* out[r] = a[r][0] + a[r][1] + ... + a[r][cols - 1] for every r < rows,
 * where a is rows x cols, row-major (a[r][c] is a[r * cols + c]). One
 * block per row: the grid is 1 x rows, so the row is blockIdx.y; blocks of
 * B threads, B the smallest power of two >= cols, one column each; B
 * floats of dynamic shared memory per block. */
__global__ void axis_sum(const float *a, float *out, int rows, int cols);

/* The threads per block the launch uses: the smallest power of two >= cols. */
static inline int axis_sum_block(int cols)
{
    int b = 1;
    while (b < cols) b *= 2;
    return b;
}

/* Given (do not change it): dim3(1, rows) blocks of axis_sum_block(cols)
 * threads, cols <= 1024, with that many floats of dynamic shared memory. */
PW_SIMT_EXTERN_C void axis_sum_launch(const float *d_a, float *d_out, int rows, int cols);

#endif
