/* tests/wrong/8.17-unguarded-edge.cu: puzzle 8.17 that loads the tiles
 * without testing the edges, as if n were a multiple of T: at n = 3 in
 * tiles of 2 the threads of the last row of tiles read A[3][..], past the
 * end of A (and the others read the next row's elements as this row's).
 * expect: FAIL: the kernel stopped with an error.*out of bounds */
#include "matmul.h"

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    extern __shared__ float s[];
    int T = blockDim.x, x = threadIdx.x, y = threadIdx.y;
    float *ta = s, *tb = s + T * T;
    int row = blockIdx.y * T + y, col = blockIdx.x * T + x;
    float sum = 0.0f;
    for (int k0 = 0; k0 < n; k0 += T) {
        ta[y * T + x] = A[row * n + k0 + x];
        tb[y * T + x] = B[(k0 + y) * n + col];
        __syncthreads();
        for (int k = 0; k < T; k++) sum += ta[y * T + k] * tb[k * T + x];
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = sum;
}

void matmul_launch(const float *d_A, const float *d_B, float *d_C, int n, int tile)
{
    int tiles = (n + tile - 1) / tile;
    matmul<<<dim3(tiles, tiles), dim3(tile, tile), 2 * tile * tile * sizeof(float)>>>(d_A, d_B, d_C, n);
}
