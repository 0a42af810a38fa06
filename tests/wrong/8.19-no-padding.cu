/* tests/wrong/8.19-no-padding.cu: puzzle 8.19 handed in as given: the tile
 * is 32 x 32, so its column (lane l: word 32 l + j) is all on bank j, 32
 * wavefronts per load request; with a store and a load per element, 16.5 on
 * average on a full tile. Every value is right.
 * expect: FAIL: 16.50 wavefronts per shared request .*the worst 32-way */
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
