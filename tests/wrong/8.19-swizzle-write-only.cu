/* tests/wrong/8.19-swizzle-write-only.cu: puzzle 8.19 with the XOR swizzle
 * on the store only: element (r, c) goes to tile[r][c ^ r], but the load
 * still reads tile[c][r]. The load is conflict-free, but it reads another
 * element of the tile (only row 0 and the diagonal come out right).
 * expect: FAIL: out\[0\]\[1\] = .*another element of the same tile */
#include "bank_conflicts.h"

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[BC_TILE][BC_TILE];
    int c = blockIdx.x * BC_TILE + threadIdx.x;
    for (int k = 0; k < BC_TILE; k += BC_ROWS) {
        int r = blockIdx.y * BC_TILE + threadIdx.y + k;
        if (r < rows && c < cols) tile[threadIdx.y + k][threadIdx.x ^ (threadIdx.y + k)] = in[(long long)r * cols + c];
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
