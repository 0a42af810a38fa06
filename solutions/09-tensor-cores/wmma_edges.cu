/* solutions/09-tensor-cores/wmma_edges.cu: a solution of exercise 9.3.
 *
 * Added to the skeleton exercises/09-tensor-cores/wmma_edges.cu: the
 * zero-filling copies of the A and B tiles into the warp's shared staging
 * tiles, the __syncwarp()s that order the lanes' stores and the fragment
 * loads, the fragment loads with ldm 16, and the guarded copy of the C tile
 * out of shared memory; then the launch.
 * Graded by: make solution-9.3
 *
 * The cost of not padding: per 16-wide step each lane makes 16 two-byte
 * loads from global memory and 16 stores into shared memory (8 elements of
 * each tile) before the two fragment loads, where exercise 9.2's warp made
 * just the fragment loads; and the C tile goes through shared memory once.
 * In exchange any m, n, k works and the caller allocates nothing. (The
 * chapter's rung 9, wmma_shared, makes staging pay: a tile staged once
 * feeds several fragments.)
 */
#include <mma.h>

#include "wmma_edges.h"

using namespace nvcuda;

__global__ void wmma_edges(const __half *A, const __half *B, float *C, int m, int n, int k)
{
    __shared__ __align__(32) __half As[WMMA_EDGES_WARPS][16 * 16];
    __shared__ __align__(32) __half Bs[WMMA_EDGES_WARPS][16 * 16];
    __shared__ __align__(32) float Cs[WMMA_EDGES_WARPS][16 * 16];
    int w = threadIdx.y, lane = threadIdx.x;
    int row = (blockIdx.y * WMMA_EDGES_WARPS + w) * 16;   /* this warp's tile of C */
    int col = blockIdx.x * 16;
    if (row >= m) return;
    __half *as = As[w], *bs = Bs[w];
    float *cs = Cs[w];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    const __half zero = __float2half(0.0f);
    for (int p = 0; p < k; p += 16) {
        for (int e = lane; e < 256; e += 32) {                                            /* added */
            int r = e / 16, c = e % 16;                                                   /* added */
            as[e] = row + r < m && p + c < k ? A[(size_t)(row + r) * k + p + c] : zero;   /* added: 0 past the edge */
            bs[e] = p + r < k && col + c < n ? B[(size_t)(p + r) * n + col + c] : zero;   /* added */
        }
        __syncwarp();                                     /* added: every lane's stores before the fragment loads */
        wmma::load_matrix_sync(a, as, 16);                /* added: 32-byte aligned, ldm 16 */
        wmma::load_matrix_sync(b, bs, 16);                /* added */
        wmma::mma_sync(acc, a, b, acc);
        __syncwarp();                                     /* added: the loads read the tile before the next overwrite */
    }
    wmma::store_matrix_sync(cs, acc, 16, wmma::mem_row_major);                            /* added */
    __syncwarp();                                                                         /* added */
    for (int e = lane; e < 256; e += 32) {                                                /* added */
        int r = e / 16, c = e % 16;                                                       /* added */
        if (row + r < m && col + c < n) C[(size_t)(row + r) * n + col + c] = cs[e];       /* added: only inside C */
    }
}

void wmma_edges_launch(const __half *dA, const __half *dB, float *dC, int m, int n, int k)
{
    int tile_rows = (m + 15) / 16, tile_cols = (n + 15) / 16;                                     /* added */
    dim3 block(32, WMMA_EDGES_WARPS), grid(tile_cols, (tile_rows + WMMA_EDGES_WARPS - 1) / WMMA_EDGES_WARPS);   /* added */
    wmma_edges<<<grid, block>>>(dA, dB, dC, m, n, k);                                              /* added */
}
