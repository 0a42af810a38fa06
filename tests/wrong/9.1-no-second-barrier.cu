/* tests/wrong/9.1-no-second-barrier.cu: exercise 9.1 without the barrier
 * after the products: a fast thread overwrites the tile for the next k step
 * while slower ones still read the old one. Racecheck must name it, even
 * when the emulator's thread order makes the products come out right.
 * expect: FAIL: the emulator's checks found a problem
 * hint: one before overwriting them */
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
        As[ty][tx] = row < m && p0 + tx < k ? A[row * k + p0 + tx] : 0.0f;
        Bs[ty][tx] = p0 + ty < k && col < n ? B[(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < TILE; q++) acc += As[ty][q] * Bs[q][tx];
    }
    if (row < m && col < n) C[row * n + col] = acc;
}

void smem_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    smem_tile<<<grid, block>>>(dA, dB, dC, m, n, k);
}
