/* solutions/08-cuda-warps/map2d.cu: a solution of puzzle 8.8, map2d.
 *
 * threadIdx.x is the column and threadIdx.y the row: x runs along a row,
 * as consecutive elements do in memory (so a warp's 32 lanes touch
 * neighbouring addresses: coalesced, chapter 08's step 2). The block is at
 * least cols x rows, so a thread with x >= cols or y >= rows has no cell:
 * the guard tests both, before the read. Element (r, c) is r * cols + c: the
 * row stride is the matrix's width, not the block's (blockDim.x is larger).
 * 1 read and 1 write per thread with a cell, rows x cols of each in all.
 */
#include "exercise.h"
#include "map2d.h"

__global__ void map2d(const float *a, float *out, int rows, int cols)
{
    int c = threadIdx.x, r = threadIdx.y;
    if (r < rows && c < cols) out[r * cols + c] = a[r * cols + c] + 10.0f;
}

void map2d_launch(const float *d_a, float *d_out, int rows, int cols, int bx, int by)
{
    map2d<<<1, dim3(bx, by)>>>(d_a, d_out, rows, cols);
}
