/* tests/wrong/8.17-one-barrier.cu: puzzle 8.17 without the second
 * __syncthreads(): a thread that finishes its T products loads the next
 * step's tiles while another thread of the block still reads these.
 * racecheck reports the write-after-read even when C comes out right.
 * expect: FAIL: the emulator's checks found a problem.*racecheck */
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
    }
    if (row < n && col < n) C[row * n + col] = sum;
}

void matmul_launch(const float *d_A, const float *d_B, float *d_C, int n, int tile)
{
    int tiles = (n + tile - 1) / tile;
    matmul<<<dim3(tiles, tiles), dim3(tile, tile), 2 * tile * tile * sizeof(float)>>>(d_A, d_B, d_C, n);
}
