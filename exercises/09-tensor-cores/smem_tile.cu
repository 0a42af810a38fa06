/* exercises/09-tensor-cores/smem_tile.cu: exercise 9.1, a GEMM with
 * shared-memory tiles (rung 3 of the chapter's ladder).
 *
 * What it teaches: the naive kernel (one thread per element of C) reads a
 * row of A and a column of B from global memory for every output: 2k loads
 * per output, where the matrices hold only (m k + k n) elements. A block of
 * TILE x TILE threads can instead load one TILE x TILE tile of A and one of
 * B into shared memory, wait at a barrier, and let every thread read its
 * TILE products from there: each loaded element serves TILE outputs, so the
 * loads per output fall from 2k to about 2k / TILE (14 for 16x16 tiles at
 * 100 x 100 x 100, instead of 200).
 *
 * Write smem_tile() and smem_tile_launch() (declared in smem_tile.h). The
 * checker runs them on the SIMT emulator on odd sizes (1, 15, 17, 33, 100
 * and 33 x 100 x 17: partial tiles on every edge), compares every element
 * with a double-precision reference, then counts your global loads: at
 * most what 8 x 8 tiles load (26 per output at 100^3).
 *
 * Check your work: make ex-9.1. The answer: solutions/09-tensor-cores/smem_tile.cu.
 */
#include "exercise.h"
#include "smem_tile.h"

#define TILE 16   /* the tile's side: blocks of TILE x TILE threads, one output each */

__global__ void smem_tile(const float *A, const float *B, float *C, int m, int n, int k)
{
    /* TODO:
     *  0. The two tiles, in shared memory (one copy per block):
     *       __shared__ float As[TILE][TILE];   (A's rows row0.. of C's tile, columns p0 .. p0+TILE)
     *       __shared__ float Bs[TILE][TILE];   (B's rows p0 .. p0+TILE, C's tile's columns)
     *  1. This thread's output: row = blockIdx.y * TILE + threadIdx.y,
     *     col = blockIdx.x * TILE + threadIdx.x; acc = 0.
     *  2. For each tile of the k dimension, p0 = 0, TILE, 2 TILE, ... < k:
     *     a. each thread loads ONE element of each tile:
     *          As[threadIdx.y][threadIdx.x] = A[row][p0 + threadIdx.x], or 0 if
     *          outside A (row >= m or p0 + threadIdx.x >= k);
     *          Bs[threadIdx.y][threadIdx.x] = B[p0 + threadIdx.y][col], or 0 if
     *          outside B. (A[r][c] is A[r * k + c]; B[r][c] is B[r * n + c].)
     *     b. __syncthreads(): the whole tile is in before anyone reads it;
     *     c. acc += As[threadIdx.y][q] * Bs[q][threadIdx.x] for q = 0 .. TILE-1
     *        (the zeros make the ragged last tile add nothing);
     *     d. __syncthreads(): nobody overwrites the tile while others still read it.
     *     Every thread takes part in the loads and barriers, also one whose
     *     (row, col) is outside C: no early return.
     *  3. If row < m and col < n: C[row * n + col] = acc.
     * Then delete the line below. */
    (void)A; (void)B; (void)C; (void)m; (void)n; (void)k;
}

void smem_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k)
{
    /* TODO: blocks of dim3(TILE, TILE) threads, a grid of
     * dim3(ceil(n / TILE), ceil(m / TILE)) blocks (x across the columns of C):
     *   smem_tile<<<grid, block>>>(dA, dB, dC, m, n, k);
     * (the tiles are static __shared__ arrays: no third launch argument.)
     * Then delete the lines below. */
    (void)dA; (void)dB; (void)dC; (void)m; (void)n; (void)k;
    PW_NOT_YET_IMPLEMENTED();
}
