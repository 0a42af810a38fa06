/* tests/wrong/9.3-direct-store.cu: exercise 9.3 staging A and B right but
 * storing the accumulator straight into C: on a ragged edge the 16 x 16
 * store runs past C, and with n odd its ldm and its tiles' addresses break
 * CUDA's rules. The emulator must refuse it.
 * expect: FAIL: the kernel stopped with an error */
#include <mma.h>

#include "wmma_edges.h"

using namespace nvcuda;

__global__ void wmma_edges(const __half *A, const __half *B, float *C, int m, int n, int k)
{
    __shared__ __align__(32) __half As[WMMA_EDGES_WARPS][16 * 16];
    __shared__ __align__(32) __half Bs[WMMA_EDGES_WARPS][16 * 16];
    int w = threadIdx.y, lane = threadIdx.x;
    int row = (blockIdx.y * WMMA_EDGES_WARPS + w) * 16, col = blockIdx.x * 16;
    if (row >= m) return;
    __half *as = As[w], *bs = Bs[w];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    const __half zero = __float2half(0.0f);
    for (int p = 0; p < k; p += 16) {
        for (int e = lane; e < 256; e += 32) {
            int r = e / 16, c = e % 16;
            as[e] = row + r < m && p + c < k ? A[(size_t)(row + r) * k + p + c] : zero;
            bs[e] = p + r < k && col + c < n ? B[(size_t)(p + r) * n + col + c] : zero;
        }
        __syncwarp();
        wmma::load_matrix_sync(a, as, 16);
        wmma::load_matrix_sync(b, bs, 16);
        wmma::mma_sync(acc, a, b, acc);
        __syncwarp();
    }
    wmma::store_matrix_sync(C + (size_t)row * n + col, acc, n, wmma::mem_row_major);
}

void wmma_edges_launch(const __half *dA, const __half *dB, float *dC, int m, int n, int k)
{
    dim3 block(32, WMMA_EDGES_WARPS), grid((n + 15) / 16, ((m + 15) / 16 + WMMA_EDGES_WARPS - 1) / WMMA_EDGES_WARPS);
    wmma_edges<<<grid, block>>>(dA, dB, dC, m, n, k);
}
