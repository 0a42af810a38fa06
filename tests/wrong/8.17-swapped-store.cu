/* tests/wrong/8.17-swapped-store.cu: puzzle 8.17 right in everything but
 * the store, C[col][row]: the result is C transposed.
 * expect: FAIL: C\[1\]\[2\] = .*row and column swapped */
#include "matmul.h"

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    extern __shared__ float s[];
    int T = blockDim.x, x = threadIdx.x, y = threadIdx.y;
    float *ta = s, *tb = s + T * T;
    int row = blockIdx.y * T + y, col = blockIdx.x * T + x;
    float sum = 0.0f;
    for (int k0 = 0; k0 < n; k0 += T) {
        ta[y * T + x] = row < n && k0 + x < n ? A[row * n + k0 + x] : 0.0f;
        tb[y * T + x] = k0 + y < n && col < n ? B[(k0 + y) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; k++) sum += ta[y * T + k] * tb[k * T + x];
        __syncthreads();
    }
    if (row < n && col < n) C[col * n + row] = sum;
}

void matmul_launch(const float *d_A, const float *d_B, float *d_C, int n, int tile)
{
    int tiles = (n + tile - 1) / tile;
    matmul<<<dim3(tiles, tiles), dim3(tile, tile), 2 * tile * tile * sizeof(float)>>>(d_A, d_B, d_C, n);
}
