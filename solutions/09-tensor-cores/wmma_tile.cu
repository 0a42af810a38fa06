/* solutions/09-tensor-cores/wmma_tile.cu: a solution of exercise 9.2.
 *
 * Added to the skeleton exercises/09-tensor-cores/wmma_tile.cu: the k loop
 * (two fragment loads with the matrices' own row lengths as ldm, one
 * mma_sync per 16-wide step) and the launch.
 * Graded by: make solution-9.2
 *
 * Each warp makes K/16 mma_sync calls for its tile: at 112 x 112 x 112
 * (100 padded) that is 7 x 7 tiles x 7 steps = 343, each 8192 flops. Every
 * warp loads its 16 rows of A and 16 columns of B straight from global
 * memory, K/16 times 2 x 512 bytes: no reuse between the warps of a block
 * (what rung 9, wmma_shared, adds).
 */
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
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;    /* added */
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;    /* added */
    for (int p = 0; p < K; p += 16) {                                         /* added */
        wmma::load_matrix_sync(a, A + (size_t)row * K + p, K);                /* added: A's rows are K long */
        wmma::load_matrix_sync(b, B + (size_t)p * N + col, N);                /* added: B's rows are N long */
        wmma::mma_sync(acc, a, b, acc);                                       /* added */
    }
    wmma::store_matrix_sync(C + (size_t)row * N + col, acc, N, wmma::mem_row_major);
}

void wmma_tile_launch(const __half *dA, const __half *dB, float *dC, int M, int N, int K)
{
    int tile_rows = M / 16;                                                            /* added */
    dim3 block(32, WMMA_TILE_WARPS);                                                   /* added */
    dim3 grid(N / 16, (tile_rows + WMMA_TILE_WARPS - 1) / WMMA_TILE_WARPS);            /* added */
    wmma_tile<<<grid, block>>>(dA, dB, dC, M, N, K);                                   /* added */
}
