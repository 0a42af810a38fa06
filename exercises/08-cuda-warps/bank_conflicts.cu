/* exercises/08-cuda-warps/bank_conflicts.cu: GPU puzzle 8.19, bank
 * conflicts (about performance: the kernel below is already right).
 *
 * The task: the transpose below goes through a 32 x 32 tile of shared
 * memory, so that it reads `in` by rows and writes `out` by rows, both
 * coalesced. It is correct. But shared memory is 32 banks of 4-byte words
 * (word w in bank w % 32), and a bank serves one word per cycle: a warp
 * request whose lanes touch k different words in one bank takes k passes,
 * k "wavefronts". Writing the tile by rows puts the 32 lanes on 32 banks
 * (1 wavefront); reading it by columns, tile[threadIdx.x][j], puts lane l
 * on word 32 l + j: all 32 lanes on bank j, 32 wavefronts. Make every
 * request conflict-free (change the tile's shape, or where element (r, c)
 * lives in it) and keep the values right. Predict first: with the given
 * tile, how many wavefronts per request does a full 32 x 32 tile take on
 * average, stores and loads together?
 *
 * The budget, counted by the emulator on every size below: each element
 * read from `in` once, stored into the tile once, loaded from it once and
 * written to `out` once; global requests coalesced (at most 5 sectors for a
 * warp's 32 floats); and shared wavefronts at most 1.0x the ideal (1 per
 * request: no conflict at all).
 *
 * What the checker tries (check_bank_conflicts.c), on the SIMT emulator:
 * 32 x 32 with the bank picture of warp 0's first tile request (which bank
 * and word each lane touched), then 1 x 1, 5 x 7, 33 x 65, 100 x 37,
 * 64 x 96 and 129 x 70: partial tiles on both edges. Every value is
 * compared exactly, and the wavefronts are printed beside the given tile's.
 *
 *   make ex-8.19      grade this file (it prints the bank picture)
 *   make hint-8.19    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/bank_conflicts.cu: try first.
 */
#include "exercise.h"
#include "bank_conflicts.h"

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    /* TODO: the reads of this tile by columns (the second loop) conflict 32
     * ways. Change the tile (or its indexing) so that no request does. */
    __shared__ float tile[BC_TILE][BC_TILE];
    int c = blockIdx.x * BC_TILE + threadIdx.x;                  /* this thread's column of in */
    for (int k = 0; k < BC_TILE; k += BC_ROWS) {                 /* rows ty, ty + 8, ty + 16, ty + 24 of the tile */
        int r = blockIdx.y * BC_TILE + threadIdx.y + k;
        if (r < rows && c < cols) tile[threadIdx.y + k][threadIdx.x] = in[(long long)r * cols + c];
    }
    __syncthreads();                                             /* the whole tile is in before anyone reads it */
    int oc = blockIdx.y * BC_TILE + threadIdx.x;                 /* column of out = row of in */
    for (int k = 0; k < BC_TILE; k += BC_ROWS) {
        int orow = blockIdx.x * BC_TILE + threadIdx.y + k;       /* row of out = column of in */
        if (orow < cols && oc < rows) out[(long long)orow * rows + oc] = tile[threadIdx.x][threadIdx.y + k];
    }
}

void transpose_tiled_launch(const float *d_in, float *d_out, int rows, int cols)
{
    dim3 block(BC_TILE, BC_ROWS), grid((cols + BC_TILE - 1) / BC_TILE, (rows + BC_TILE - 1) / BC_TILE);
    transpose_tiled<<<grid, block>>>(d_in, d_out, rows, cols);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when the tile is conflict-free */
}
