/* solutions/08-cuda-warps/bank_conflicts.cu: a solution of puzzle 8.19, bank conflicts.
 *
 * One extra column: tile[32][33]. Element (r, c) of the tile is word
 * 33 r + c, in bank (33 r + c) % 32 = (r + c) % 32. A row (r fixed, the 32
 * lanes on c = 0 .. 31) is still on 32 different banks; a column (c fixed,
 * lanes on r = 0 .. 31) is now too, one bank further along per row, where
 * with 32 words a row all 32 rows of a column sat in bank c. Every request,
 * stores and loads, is 1 wavefront: the ideal, where the given tile took
 * (1 + 32) / 2 = 16.5 on average on a full tile (a store and a load per
 * element). The cost: 32 words of shared memory per block (4 KiB + 128 B).
 * Any odd row length works (it shares no factor with the 32 banks); an
 * even one does not (34: lanes l and l + 16 on one bank, 2-way), nor does
 * 64 (every column still on one bank). A swizzle, tile[r][c ^ r], is the
 * other way, with no wasted words (tests/wrong/8.19-swizzle.cu passes).
 */
#include "exercise.h"
#include "bank_conflicts.h"

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[BC_TILE][BC_TILE + 1];                /* + 1: rows 33 words apart, so a column spans 32 banks */
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
