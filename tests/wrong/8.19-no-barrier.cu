/* tests/wrong/8.19-no-barrier.cu: puzzle 8.19 padded right but with the
 * __syncthreads() between the two loops removed: a warp reads the tile's
 * column, which the other 7 warps write, with nothing ordering the two.
 * expect: FAIL: the emulator's checks found a problem .*racecheck
 * hint: __syncthreads\(\) between the loop that */
#include "bank_conflicts.h"

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[BC_TILE][BC_TILE + 1];                /* + 1: rows 33 words apart, so a column spans 32 banks */
    int c = blockIdx.x * BC_TILE + threadIdx.x;
    for (int k = 0; k < BC_TILE; k += BC_ROWS) {
        int r = blockIdx.y * BC_TILE + threadIdx.y + k;
        if (r < rows && c < cols) tile[threadIdx.y + k][threadIdx.x] = in[(long long)r * cols + c];
    }
    /* (no barrier: "the warp that wrote a row reads a column") */
    int oc = blockIdx.y * BC_TILE + threadIdx.x;
    for (int k = 0; k < BC_TILE; k += BC_ROWS) {
        int orow = blockIdx.x * BC_TILE + threadIdx.y + k;
        if (orow < cols && oc < rows) out[(long long)orow * rows + oc] = tile[threadIdx.x][threadIdx.y + k];
    }
}

void transpose_tiled_launch(const float *d_in, float *d_out, int rows, int cols)
{
    dim3 block(BC_TILE, BC_ROWS), grid((cols + BC_TILE - 1) / BC_TILE, (rows + BC_TILE - 1) / BC_TILE);
    transpose_tiled<<<grid, block>>>(d_in, d_out, rows, cols);
}
