/* exercises/09-tensor-cores/wmma_tile.cu: exercise 9.2, the WMMA tile loop
 * (rung 8 of the chapter's ladder: Tensor Cores straight from global memory).
 *
 * What it teaches: a Tensor Core multiplies small matrices, not numbers.
 * One mma_sync is a whole warp computing a 16 x 16 x 16 product, 8192
 * flops, from fragments: opaque pieces of a 16 x 16 tile spread over the
 * warp's 32 lanes. Which lane holds which element is not specified (it
 * differs between GPU generations, and the emulator's differs from the
 * obvious one): only load_matrix_sync, mma_sync and store_matrix_sync know
 * it. The k loop is the same as a scalar dot product's, one tile at a time.
 *
 * The task: the k loop of wmma_tile() (the warp's place in C, its zeroed
 * accumulator and the final store are given), and wmma_tile_launch().
 *
 * The interface (wmma_tile.h):
 *   __global__ void wmma_tile(const __half *A, const __half *B, float *C, int M, int N, int K);
 *     - row-major: A is M x K, B is K x N (fp16), C is M x N (fp32); M, N
 *       and K are multiples of 16 (the caller pads: exercise 9.3 drops that);
 *     - warp w of block (bx, by), threadIdx.y = w, computes the 16 x 16 tile
 *       of C at row 16 (by WMMA_TILE_WARPS + w), column 16 bx;
 *     - fragments only through the wmma calls: never read or write a
 *       fragment's x[] by an assumed position.
 *   void wmma_tile_launch(const __half *dA, const __half *dB, float *dC, int M, int N, int K);
 *     - device pointers; blocks of 32 x WMMA_TILE_WARPS threads (one warp per
 *       row of threads), enough of them for every tile of C.
 *
 * What the checker tries (check_wmma_tile.c), on the SIMT emulator:
 * m x k x n = 1, 15, 17, 33, 64 and 100 cubed, 33 x 100 x 17 and
 * 100 x 17 x 33, rounded to fp16 and padded with zeros to multiples of 16;
 * every element of C against a double-precision product of the same fp16
 * inputs (the padding of C must be 0); exactly (M/16)(N/16)(K/16) mma_sync
 * calls. Everything twice: with the emulator's fixed fragment layout, then
 * with a scrambled one.
 *
 *   make ex-9.2      grade this file (each failure is explained)
 *   make hint-9.2    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/09-tensor-cores/wmma_tile.cu: try first.
 */
#include <mma.h>

#include "exercise.h"
#include "wmma_tile.h"

using namespace nvcuda;

__global__ void wmma_tile(const __half *A, const __half *B, float *C, int M, int N, int K)
{
    int row = (blockIdx.y * WMMA_TILE_WARPS + threadIdx.y) * 16;   /* this warp's tile of C */
    int col = blockIdx.x * 16;
    if (row >= M) return;   /* the whole warp leaves together: no collective is left half-called */
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    /* TODO: the k loop. Then delete the placeholder line below. */
    (void)A; (void)B; (void)K;
    wmma::store_matrix_sync(C + (size_t)row * N + col, acc, N, wmma::mem_row_major);
}

void wmma_tile_launch(const __half *dA, const __half *dB, float *dC, int M, int N, int K)
{
    /* TODO: the launch. Then delete the placeholder lines below. */
    (void)dA; (void)dB; (void)dC; (void)M; (void)N; (void)K;
    PW_NOT_YET_IMPLEMENTED();
}
