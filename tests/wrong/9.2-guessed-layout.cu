/* tests/wrong/9.2-guessed-layout.cu: exercise 9.2 whose tile loop is right
 * but which writes C from acc.x[] itself, at the places the mma.m16n8k16
 * instruction's documented fragment puts them (lane 4g + t: rows g, g + 8,
 * columns 2t, 2t + 1, + 8). That is the emulator's fixed layout too, so it
 * passes there; CUDA promises no layout for wmma, and the scrambled pass
 * must fail it and say why.
 * expect: FAIL: C\[
 * hint: wrong with a scrambled one */
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
        wmma::load_matrix_sync(b, B + (size_t)p * N + col, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    int g = threadIdx.x / 4, t = threadIdx.x % 4;
    for (int i = 0; i < acc.num_elements; i++) {
        int r = g + 8 * ((i & 3) >> 1), c = 2 * t + (i & 1) + 8 * (i >> 2);
        C[(size_t)(row + r) * N + col + c] = acc.x[i];
    }
}

void wmma_tile_launch(const __half *dA, const __half *dB, float *dC, int M, int N, int K)
{
    dim3 block(32, WMMA_TILE_WARPS), grid(N / 16, (M / 16 + WMMA_TILE_WARPS - 1) / WMMA_TILE_WARPS);
    wmma_tile<<<grid, block>>>(dA, dB, dC, M, N, K);
}
