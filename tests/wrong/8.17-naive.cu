/* tests/wrong/8.17-naive.cu: puzzle 8.17 without tiles: every thread reads
 * its row of A and its column of B from global memory. Every value is
 * right; 2n global reads per thread (6 at n = 3) where the tiles need
 * 2 ceil(n / T) (4 at n = 3, T = 2).
 * expect: FAIL: thread 0 makes 6 global reads; the puzzle allows 4 per thread */
#include "matmul.h"

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++) sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

void matmul_launch(const float *d_A, const float *d_B, float *d_C, int n, int tile)
{
    int tiles = (n + tile - 1) / tile;
    matmul<<<dim3(tiles, tiles), dim3(tile, tile), 2 * tile * tile * sizeof(float)>>>(d_A, d_B, d_C, n);
}
