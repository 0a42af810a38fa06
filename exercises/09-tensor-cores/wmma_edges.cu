/* exercises/09-tensor-cores/wmma_edges.cu: exercise 9.3, Tensor Cores on
 * any size, without padding.
 *
 * What it teaches: load_matrix_sync and store_matrix_sync move whole 16 x 16
 * tiles, and CUDA asks two things of them: a 32-byte-aligned pointer, and a
 * leading dimension (ldm) that is a multiple of 8 halves (16 bytes), so that
 * every row of the tile starts on a 16-byte boundary. A matrix whose rows
 * have an odd length (k = 17, say) breaks the second: ldm = 17 is refused.
 * And a tile on the ragged edge hangs over the end of the matrix. Exercise
 * 9.2 had the caller pad every matrix to multiples of 16 (a copy of A and B
 * the size of the padded problem). Here the kernel handles the edges
 * itself: each warp copies its tiles of A and B into shared memory, where a
 * tile is 16 x 16 with ldm 16, writing 0 wherever the tile hangs over the
 * edge of the matrix; and it stores its C tile into shared memory too, then
 * copies out only the part inside C.
 *
 * Write the k loop's staging (with the zero fill) and the C tile's way out
 * in wmma_edges(), and wmma_edges_launch() (declared in wmma_edges.h). The checker runs them on the SIMT emulator on m x k x n =
 * 1, 15, 17, 33, 100 and two non-square sizes, with buffers of exactly the
 * matrices' size (no padding), the fragment layout fixed and then
 * scrambled, and compares with a double-precision product of the same fp16
 * inputs.
 *
 * Check your work: make ex-9.3. The answer: solutions/09-tensor-cores/wmma_edges.cu.
 */
#include <mma.h>

#include "exercise.h"
#include "wmma_edges.h"

using namespace nvcuda;

__global__ void wmma_edges(const __half *A, const __half *B, float *C, int m, int n, int k)
{
    int w = threadIdx.y;
    int row = (blockIdx.y * WMMA_EDGES_WARPS + w) * 16;   /* this warp's tile of C: rows row .. row + 15 */
    if (row >= m) return;   /* the whole warp leaves together */
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    /* TODO:
     *  0. The tile's first column, col = blockIdx.x * 16, and lane = threadIdx.x.
     *     The warp's staging tiles, one per warp of the block, 32-byte aligned
     *     as load_matrix_sync requires, and this warp's own:
     *       __shared__ __align__(32) __half As[WMMA_EDGES_WARPS][16 * 16];
     *       __shared__ __align__(32) __half Bs[WMMA_EDGES_WARPS][16 * 16];
     *       __shared__ __align__(32) float Cs[WMMA_EDGES_WARPS][16 * 16];
     *       __half *as = As[w], *bs = Bs[w];   float *cs = Cs[w];
     *     and the fragments a (matrix_a) and b (matrix_b), __half, row_major.
     *  1. For p = 0, 16, ... < k:
     *     a. the 256 elements of each tile, 8 per lane: for (e = lane; e < 256; e += 32),
     *        r = e / 16, c = e % 16:
     *          as[e] = A[row + r][p + c] if row + r < m and p + c < k, else 0
     *          bs[e] = B[p + r][col + c] if p + r < k and col + c < n, else 0
     *        (A[i][j] is A[i * k + j], B[i][j] is B[i * n + j]; 0 is __float2half(0.0f).)
     *     b. __syncwarp(): the other lanes' stores are in before the fragments read them;
     *     c. wmma::load_matrix_sync(a, as, 16); the same for b; wmma::mma_sync(acc, a, b, acc);
     *     d. __syncwarp(): the tiles are read before the next step overwrites them.
     *  2. wmma::store_matrix_sync(cs, acc, 16, wmma::mem_row_major); __syncwarp();
     *     then each lane copies its 8 elements cs[e] (e = lane, lane + 32, ...;
     *     r = e / 16, c = e % 16) to C[(row + r) * n + col + c], only where
     *     row + r < m and col + c < n.
     * Then delete the line below. */
    (void)A; (void)B; (void)C; (void)n; (void)k;
}

void wmma_edges_launch(const __half *dA, const __half *dB, float *dC, int m, int n, int k)
{
    /* TODO: blocks of dim3(32, WMMA_EDGES_WARPS) threads, a grid of
     * dim3(ceil(n / 16), ceil(ceil(m / 16) / WMMA_EDGES_WARPS)):
     *   wmma_edges<<<grid, block>>>(dA, dB, dC, m, n, k);
     * Then delete the lines below. */
    (void)dA; (void)dB; (void)dC; (void)m; (void)n; (void)k;
    PW_NOT_YET_IMPLEMENTED();
}
