/* tests/wrong/9.3-no-zero-fill.cu: exercise 9.3 staging only the elements
 * inside the matrices: the part of a staging tile past an edge keeps what
 * shared memory held (the emulator's poison, NaN), and the fragment load
 * reads it. Initcheck must report it (and the NaN would reach C).
 * expect: FAIL
 * hint: the ones past the matrix.s edge as 0 */
#include <mma.h>

#include "wmma_edges.h"

using namespace nvcuda;

__global__ void wmma_edges(const __half *A, const __half *B, float *C, int m, int n, int k)
{
    __shared__ __align__(32) __half As[WMMA_EDGES_WARPS][16 * 16];
    __shared__ __align__(32) __half Bs[WMMA_EDGES_WARPS][16 * 16];
    __shared__ __align__(32) float Cs[WMMA_EDGES_WARPS][16 * 16];
    int w = threadIdx.y, lane = threadIdx.x;
    int row = (blockIdx.y * WMMA_EDGES_WARPS + w) * 16, col = blockIdx.x * 16;
    if (row >= m) return;
    __half *as = As[w], *bs = Bs[w];
    float *cs = Cs[w];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    for (int p = 0; p < k; p += 16) {
        for (int e = lane; e < 256; e += 32) {
            int r = e / 16, c = e % 16;
            if (row + r < m && p + c < k) as[e] = A[(size_t)(row + r) * k + p + c];
            if (p + r < k && col + c < n) bs[e] = B[(size_t)(p + r) * n + col + c];
        }
        __syncwarp();
        wmma::load_matrix_sync(a, as, 16);
        wmma::load_matrix_sync(b, bs, 16);
        wmma::mma_sync(acc, a, b, acc);
        __syncwarp();
    }
    wmma::store_matrix_sync(cs, acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 256; e += 32) {
        int r = e / 16, c = e % 16;
        if (row + r < m && col + c < n) C[(size_t)(row + r) * n + col + c] = cs[e];
    }
}

void wmma_edges_launch(const __half *dA, const __half *dB, float *dC, int m, int n, int k)
{
    dim3 block(32, WMMA_EDGES_WARPS), grid((n + 15) / 16, ((m + 15) / 16 + WMMA_EDGES_WARPS - 1) / WMMA_EDGES_WARPS);
    wmma_edges<<<grid, block>>>(dA, dB, dC, m, n, k);
}
