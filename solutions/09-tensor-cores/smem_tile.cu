/* solutions/09-tensor-cores/smem_tile.cu: a solution of exercise 9.1.
 *
 * Added to the skeleton exercises/09-tensor-cores/smem_tile.cu: the tile
 * loop (guarded loads, two barriers, TILE products from shared memory), the
 * guarded store, and the launch.
 * Graded by: make solution-9.1
 *
 * With 16 x 16 tiles at 100 x 100 x 100: 7 x 7 blocks, each loading its 16
 * rows of A and 16 columns of B once (guarded at the edges): 140000 loads,
 * 14 per output, where the naive kernel makes 200.
 */
#include "smem_tile.h"

#define TILE 16

__global__ void smem_tile(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;                                   /* added */
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;           /* added */
    float acc = 0.0f;                                                         /* added */
    for (int p0 = 0; p0 < k; p0 += TILE) {                                    /* added */
        As[ty][tx] = row < m && p0 + tx < k ? A[row * k + p0 + tx] : 0.0f;    /* added */
        Bs[ty][tx] = p0 + ty < k && col < n ? B[(p0 + ty) * n + col] : 0.0f;  /* added */
        __syncthreads();                                                      /* added: tiles complete */
        for (int q = 0; q < TILE; q++) acc += As[ty][q] * Bs[q][tx];          /* added */
        __syncthreads();                                                      /* added: all read before the next overwrite */
    }
    if (row < m && col < n) C[row * n + col] = acc;                           /* added */
}

void smem_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);   /* added */
    smem_tile<<<grid, block>>>(dA, dB, dC, m, n, k);                               /* added */
}
