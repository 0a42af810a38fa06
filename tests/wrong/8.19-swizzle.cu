/* tests/wrong/8.19-swizzle.cu: a RIGHT answer to puzzle 8.19 (a check that
 * the checker accepts the other way): no padding, element (r, c) of the
 * tile stored at tile[r][c ^ r]. A row's 32 lanes have 32 different c ^ r,
 * a column's (lane r, c fixed) 32 different c ^ r too, each its own bank:
 * 1 wavefront per request, with no wasted words.
 * expect: PASS */
#include "bank_conflicts.h"

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[BC_TILE][BC_TILE];                     /* no padding: the column index is swizzled */
    int c = blockIdx.x * BC_TILE + threadIdx.x;
    for (int k = 0; k < BC_TILE; k += BC_ROWS) {
        int r = blockIdx.y * BC_TILE + threadIdx.y + k;
        if (r < rows && c < cols) tile[threadIdx.y + k][threadIdx.x ^ (threadIdx.y + k)] = in[(long long)r * cols + c];
    }
    __syncthreads();
    int oc = blockIdx.y * BC_TILE + threadIdx.x;
    for (int k = 0; k < BC_TILE; k += BC_ROWS) {
        int orow = blockIdx.x * BC_TILE + threadIdx.y + k;
        if (orow < cols && oc < rows) out[(long long)orow * rows + oc] = tile[threadIdx.x][(threadIdx.y + k) ^ threadIdx.x];
    }
}

void transpose_tiled_launch(const float *d_in, float *d_out, int rows, int cols)
{
    dim3 block(BC_TILE, BC_ROWS), grid((cols + BC_TILE - 1) / BC_TILE, (rows + BC_TILE - 1) / BC_TILE);
    transpose_tiled<<<grid, block>>>(d_in, d_out, rows, cols);
}
