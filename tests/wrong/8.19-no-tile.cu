/* tests/wrong/8.19-no-tile.cu: puzzle 8.19 "without conflicts" by dropping
 * shared memory: each thread copies its elements straight from in to out.
 * No bank to conflict, but the writes go down columns of out (32 sectors a
 * request). Every value is right.
 * expect: FAIL: for [0-9]+ elements, [0-9]+ global loads, 0 shared stores */
#include "bank_conflicts.h"

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * BC_TILE + threadIdx.x;
    for (int k = 0; k < BC_TILE; k += BC_ROWS) {
        int r = blockIdx.y * BC_TILE + threadIdx.y + k;
        if (r < rows && c < cols) out[(long long)c * rows + r] = in[(long long)r * cols + c];
    }
}

void transpose_tiled_launch(const float *d_in, float *d_out, int rows, int cols)
{
    dim3 block(BC_TILE, BC_ROWS), grid((cols + BC_TILE - 1) / BC_TILE, (rows + BC_TILE - 1) / BC_TILE);
    transpose_tiled<<<grid, block>>>(d_in, d_out, rows, cols);
}
