/* tests/wrong/8.19-columns-out.cu: puzzle 8.19 with the conflict moved to
 * global memory: the tile is read by rows (conflict-free, no padding) and
 * each warp writes a column of out, lanes a row of out apart: 32 sectors
 * per store request where a row takes 4 or 5. Every value is right.
 * expect: FAIL: [0-9.]+ sectors per global store request */
#include "bank_conflicts.h"

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[BC_TILE][BC_TILE];
    int c = blockIdx.x * BC_TILE + threadIdx.x;
    for (int k = 0; k < BC_TILE; k += BC_ROWS) {
        int r = blockIdx.y * BC_TILE + threadIdx.y + k;
        if (r < rows && c < cols) tile[threadIdx.y + k][threadIdx.x] = in[(long long)r * cols + c];
    }
    __syncthreads();
    for (int k = 0; k < BC_TILE; k += BC_ROWS) {           /* lane x: in's column c, so out's row c */
        int r = blockIdx.y * BC_TILE + threadIdx.y + k;
        if (r < rows && c < cols) out[(long long)c * rows + r] = tile[threadIdx.y + k][threadIdx.x];
    }
}

void transpose_tiled_launch(const float *d_in, float *d_out, int rows, int cols)
{
    dim3 block(BC_TILE, BC_ROWS), grid((cols + BC_TILE - 1) / BC_TILE, (rows + BC_TILE - 1) / BC_TILE);
    transpose_tiled<<<grid, block>>>(d_in, d_out, rows, cols);
}
