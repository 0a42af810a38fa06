/* tests/wrong/9.1-untiled.cu: exercise 9.1 as the naive kernel: each
 * thread reads its row of A and column of B from global memory. Every
 * product is right; it makes 2k loads per output where tiles make ~2k/T.
 * expect: FAIL: .*global loads
 * hint: that is 2k = */
#include "smem_tile.h"

#define TILE 16

__global__ void smem_tile(const float *A, const float *B, float *C, int m, int n, int k)
{
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    if (row >= m || col >= n) return;
    float acc = 0.0f;
    for (int p = 0; p < k; p++) acc += A[row * k + p] * B[p * n + col];
    C[row * n + col] = acc;
}

void smem_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    smem_tile<<<grid, block>>>(dA, dB, dC, m, n, k);
}
