/* tests/wrong/9.1-no-edge-guard.cu: exercise 9.1 with the tile loads
 * unguarded: on a ragged edge a thread reads past the end of A or B (the
 * checker's buffers are exactly the matrices: memcheck stops the kernel).
 * expect: FAIL: the kernel stopped with an error
 * hint: guard every load */
#include "smem_tile.h"

#define TILE 16

__global__ void smem_tile(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        As[ty][tx] = A[row * k + p0 + tx];
        Bs[ty][tx] = B[(p0 + ty) * n + col];
        __syncthreads();
        for (int q = 0; q < TILE; q++) acc += As[ty][q] * Bs[q][tx];
        __syncthreads();
    }
    if (row < m && col < n) C[row * n + col] = acc;
}

void smem_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    smem_tile<<<grid, block>>>(dA, dB, dC, m, n, k);
}
