/* tests/wrong/9.2-wrong-ldm.cu: exercise 9.2 loading B with ldm = K, the
 * row length of A: right on square sizes; where K > N (the checker's
 * 33 x 100 x 17, padded to 48 x 112 x 32) the tile's rows are read from the
 * wrong places, the last ones past the end of B.
 * expect: FAIL
 * hint: is each ldm */
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
    for (int p = 0; p < K; p += 16) {
        wmma::load_matrix_sync(a, A + (size_t)row * K + p, K);
        wmma::load_matrix_sync(b, B + (size_t)p * N + col, K);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + (size_t)row * N + col, acc, N, wmma::mem_row_major);
}

void wmma_tile_launch(const __half *dA, const __half *dB, float *dC, int M, int N, int K)
{
    dim3 block(32, WMMA_TILE_WARPS), grid(N / 16, (M / 16 + WMMA_TILE_WARPS - 1) / WMMA_TILE_WARPS);
    wmma_tile<<<grid, block>>>(dA, dB, dC, M, N, K);
}
