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
 * Write the k loop of wmma_tile() and wmma_tile_launch() (declared in
 * wmma_tile.h). The checker pads odd sizes (1, 15, 17, 33, 100, 33 x 100
 * x 17 ...) to multiples of 16 with zeros, runs your kernel on the SIMT
 * emulator, compares with a double-precision product of the same fp16
 * inputs, counts your mma_sync calls, and does it all again with the
 * fragment layout scrambled: a kernel that assumes where an element lives
 * in x[] fails.
 *
 * Check your work: make ex-9.2. The answer: solutions/09-tensor-cores/wmma_tile.cu.
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
    /* TODO: the k loop, p = 0, 16, 32, ... < K:
     *   1. fragments of A and B (declare them once, before the loop):
     *        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
     *        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
     *   2. load the 16 x 16 tile of A at (row, p) and of B at (p, col):
     *        wmma::load_matrix_sync(a, <address of the tile's first element>, ldm);
     *      ldm is the distance in elements from one row of the matrix to the
     *      next: A's rows are K long, B's are N long. (A[r][c] is A + r * K + c.)
     *   3. wmma::mma_sync(acc, a, b, acc);   acc = a b + acc
     *   Never read or write a.x[], b.x[], acc.x[] by position: the layout is unknown.
     * Then delete the line below. */
    (void)A; (void)B; (void)K;
    wmma::store_matrix_sync(C + (size_t)row * N + col, acc, N, wmma::mem_row_major);
}

void wmma_tile_launch(const __half *dA, const __half *dB, float *dC, int M, int N, int K)
{
    /* TODO: blocks of dim3(32, WMMA_TILE_WARPS) threads (one warp per row of
     * threads), a grid of dim3(N / 16, ceil(M / 16 / WMMA_TILE_WARPS)):
     *   wmma_tile<<<grid, block>>>(dA, dB, dC, M, N, K);
     * Then delete the lines below. */
    (void)dA; (void)dB; (void)dC; (void)M; (void)N; (void)K;
    PW_NOT_YET_IMPLEMENTED();
}
