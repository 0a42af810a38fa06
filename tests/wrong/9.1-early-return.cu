/* tests/wrong/9.1-early-return.cu: exercise 9.1 where the threads outside
 * C return before the tile loop: they never reach the barriers the others
 * wait at (synccheck stops the kernel, naming the threads).
 * expect: FAIL: the kernel stopped with an error
 * hint: every thread of the block must reach every __syncthreads */
#include "smem_tile.h"

#define TILE 16

__global__ void smem_tile(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    if (row >= m || col >= n) return;
    float acc = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        As[ty][tx] = p0 + tx < k ? A[row * k + p0 + tx] : 0.0f;
        Bs[ty][tx] = p0 + ty < k ? B[(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < TILE; q++) acc += As[ty][q] * Bs[q][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

void smem_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    smem_tile<<<grid, block>>>(dA, dB, dC, m, n, k);
}
