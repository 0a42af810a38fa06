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
 * The task: in wmma_edges(), the k loop with its staging (and zero fill)
 * and the C tile's way out (the warp's place, the early return of a warp
 * past the last tile row and the zeroed accumulator are given); and
 * wmma_edges_launch().
 *
 * The interface (wmma_edges.h):
 *   __global__ void wmma_edges(const __half *A, const __half *B, float *C, int m, int n, int k);
 *     - row-major: A is m x k, B is k x n (fp16), C is m x n (fp32), ANY
 *       sizes >= 1, buffers of exactly that size: no padding, and a read or
 *       write past an edge is an out-of-bounds access;
 *     - warp w of block (bx, by), threadIdx.y = w, computes the 16 x 16 tile
 *       of C at row 16 (by WMMA_EDGES_WARPS + w), column 16 bx, and writes
 *       only the part of it inside C;
 *     - a fragment's pointer must be 32-byte aligned and its ldm a multiple
 *       of 8 halves (4 floats); lanes of a warp that share memory need
 *       __syncwarp between a write and a read; never index a fragment's x[].
 *   void wmma_edges_launch(const __half *dA, const __half *dB, float *dC, int m, int n, int k);
 *     - device pointers; blocks of 32 x WMMA_EDGES_WARPS threads, enough of
 *       them for every tile of C.
 *
 * What the checker tries (check_wmma_edges.c), on the SIMT emulator:
 * m x k x n = 1, 15, 17, 33, 64 and 100 cubed, 33 x 100 x 17 and
 * 100 x 17 x 33, rounded to fp16, unpadded; every element of C against a
 * double-precision product of the same fp16 inputs; exactly
 * ceil(m/16) ceil(n/16) ceil(k/16) mma_sync calls. Everything twice: with
 * the emulator's fixed fragment layout, then with a scrambled one.
 *
 *   make ex-9.3      grade this file (each failure is explained)
 *   make hint-9.3    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/09-tensor-cores/wmma_edges.cu: try first.
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
    /* TODO: the k loop and the way out. Then delete the placeholder line below. */
    (void)A; (void)B; (void)C; (void)n; (void)k;
}

void wmma_edges_launch(const __half *dA, const __half *dB, float *dC, int m, int n, int k)
{
    /* TODO: the launch. Then delete the placeholder lines below. */
    (void)dA; (void)dB; (void)dC; (void)m; (void)n; (void)k;
    PW_NOT_YET_IMPLEMENTED();
}
