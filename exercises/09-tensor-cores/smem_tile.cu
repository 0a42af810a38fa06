/* exercises/09-tensor-cores/smem_tile.cu: exercise 9.1, a GEMM with
 * shared-memory tiles (rung 3 of the chapter's ladder).
 *
 * The task: C = A B in fp32, one thread per element of C, blocks of
 * TILE x TILE threads, with the tiles of A and B that a block needs staged
 * through shared memory. Why it is a lesson: the naive kernel reads a row of
 * A and a column of B from global memory for every output: 2k loads per
 * output, where the matrices hold only m k + k n elements. A block that
 * brings one tile of A and one of B into shared memory at a time, and lets
 * all its threads read them there, uses each loaded element for TILE
 * outputs: the loads per output fall from 2k to about 2k / TILE (14 for
 * 16 x 16 tiles at 100 x 100 x 100, instead of 200). The barriers that
 * make that safe are part of the exercise.
 *
 * The interface (smem_tile.h):
 *   __global__ void smem_tile(const float *A, const float *B, float *C, int m, int n, int k);
 *     - row-major: A is m x k, B is k x n, C is m x n; any sizes >= 1, so
 *       tiles are partial on every edge, and nothing past an edge may be
 *       read or written (the buffers are exactly the matrices' size);
 *     - blocks of TILE x TILE threads (TILE below), one element of C each;
 *       every thread reaches every barrier, also one outside C.
 *   void smem_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k);
 *     - device pointers; as many blocks as C has tiles.
 *
 * What the checker tries (check_smem_tile.c), on the SIMT emulator:
 * m x k x n = 1, 15, 17, 33 and 100 cubed, 33 x 100 x 17 and 100 x 17 x 33;
 * every element against a double-precision reference within the rounding
 * bound of a k-term sum. Then the counts: global loads at most what 8 x 8
 * tiles make (26 per output at 100^3), and the tiles must go through shared
 * memory.
 *
 *   make ex-9.1      grade this file (each failure is explained)
 *   make hint-9.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/09-tensor-cores/smem_tile.cu: try first.
 */
#include "exercise.h"
#include "smem_tile.h"

#define TILE 16   /* the tile's side: blocks of TILE x TILE threads, one output each */

__global__ void smem_tile(const float *A, const float *B, float *C, int m, int n, int k)
{
    /* TODO: the kernel. Then delete the placeholder line below. */
    (void)A; (void)B; (void)C; (void)m; (void)n; (void)k;
}

void smem_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k)
{
    /* TODO: the launch. Then delete the placeholder lines below. */
    (void)dA; (void)dB; (void)dC; (void)m; (void)n; (void)k;
    PW_NOT_YET_IMPLEMENTED();
}
