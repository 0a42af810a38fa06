/* tests/wrong/8.17-one-tile.cu: puzzle 8.17 that loads the first tiles
 * along k and stops: right whenever n <= T, wrong at n = 3 in tiles of 2.
 * expect: FAIL: C\[0\]\[0\] = .*the first tile's 2 products only */
#include "matmul.h"

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    extern __shared__ float s[];
    int T = blockDim.x, x = threadIdx.x, y = threadIdx.y;
    float *ta = s, *tb = s + T * T;
    int row = blockIdx.y * T + y, col = blockIdx.x * T + x;
    float sum = 0.0f;
    ta[y * T + x] = row < n && x < n ? A[row * n + x] : 0.0f;
    tb[y * T + x] = y < n && col < n ? B[y * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < T; k++) sum += ta[y * T + k] * tb[k * T + x];
    if (row < n && col < n) C[row * n + col] = sum;
}

void matmul_launch(const float *d_A, const float *d_B, float *d_C, int n, int tile)
{
    int tiles = (n + tile - 1) / tile;
    matmul<<<dim3(tiles, tiles), dim3(tile, tile), 2 * tile * tile * sizeof(float)>>>(d_A, d_B, d_C, n);
}
