/* tests/wrong/8.18-warp-per-row.cu: puzzle 8.18 with a warp per row: warp w
 * takes rows w, w + W, ... and its lanes walk the row's columns 32 at a
 * time. Coalesced along a row, but a row of 8 floats fills 8 lanes of 32:
 * 32 requests of 8 lanes on 32 x 8, where 8 full ones do (on 1 x 100 it is
 * fine; on thin matrices most lanes idle). Every value is right.
 * expect: FAIL: 32 load requests for 256 elements \(8.0 lanes each\) */
#include "coalesce.h"

__global__ void coalesce(const float *in, float *out, int rows, int cols)
{
    int lane = threadIdx.x % 32;
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, warps = gridDim.x * blockDim.x / 32;
    for (int r = warp; r < rows; r += warps)
        for (int c = lane; c < cols; c += 32) out[(long long)r * cols + c] = in[(long long)r * cols + c];
}

void coalesce_launch(const float *d_in, float *d_out, int rows, int cols)
{
    coalesce<<<(rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK, COALESCE_BLOCK>>>(d_in, d_out, rows, cols);
}
