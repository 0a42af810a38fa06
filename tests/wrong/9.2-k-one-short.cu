/* tests/wrong/9.2-k-one-short.cu: exercise 9.2 with the k loop one tile
 * short (p + 16 < K): the last 16 columns of A never reach the product.
 * The count of mma_sync calls says so before any value is compared.
 * expect: FAIL: .*mma_sync calls
 * hint: one step short per tile */
#include <mma.h>

#include "wmma_tile.h"

using namespace nvcuda;

__global__ void wmma_tile(const __half *A, const __half *B, float *C, int M, int N, int K)
{
    int row = (blockIdx.y * WMMA_TILE_WARPS + threadIdx.y) * 16;
    int col = blockIdx.x * 16;
    if (row >= M) return;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    for (int p = 0; p + 16 < K; p += 16) {
        wmma::load_matrix_sync(a, A + (size_t)row * K + p, K);
        wmma::load_matrix_sync(b, B + (size_t)p * N + col, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + (size_t)row * N + col, acc, N, wmma::mem_row_major);
}

void wmma_tile_launch(const __half *dA, const __half *dB, float *dC, int M, int N, int K)
{
    dim3 block(32, WMMA_TILE_WARPS), grid(N / 16, (M / 16 + WMMA_TILE_WARPS - 1) / WMMA_TILE_WARPS);
    wmma_tile<<<grid, block>>>(dA, dB, dC, M, N, K);
}
