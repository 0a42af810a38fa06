/* tests/wrong/8.19-pad-2.cu: puzzle 8.19 padded by 2: tile[32][34]. Lane l
 * of a column read is on bank 2 l + j (mod 32): lanes l and l + 16 share a
 * bank, 2 wavefronts per load, 1.5 on average. Better, not conflict-free.
 * expect: FAIL: 1.50 wavefronts per shared request .*the worst 2-way
 * hint: lanes l and l \+ 16 on one bank */
#include "bank_conflicts.h"

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[BC_TILE][BC_TILE + 2];     /* an even padding */
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
