/* tests/wrong/8.3-early-return.cu: exercise 8.3 with the bounds guard first:
 * a thread whose output lies outside the matrix (a partial tile on the right
 * or bottom edge) returns before the barrier, and the others wait at
 * __syncthreads() for threads that have exited. On a GPU undefined (a hang,
 * or halo cells nobody loaded); the emulator stops the kernel.
 * expect: FAIL: the kernel stopped with an error: .*exited */
#include "stencil.h"

__global__ void stencil(const float *in, float *out, int rows, int cols)
{
    extern __shared__ float tile[];
    int W = blockDim.x + 2, H = blockDim.y + 2;
    int r0 = blockIdx.y * blockDim.y - 1, c0 = blockIdx.x * blockDim.x - 1;
    int r = r0 + 1 + threadIdx.y, c = c0 + 1 + threadIdx.x;
    if (r >= rows || c >= cols) return;
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    for (int k = t; k < W * H; k += blockDim.x * blockDim.y) {
        int tr = r0 + k / W, tc = c0 + k % W;
        tile[k] = tr >= 0 && tr < rows && tc >= 0 && tc < cols ? in[tr * cols + tc] : 0.0f;
    }
    __syncthreads();
    int k = (threadIdx.y + 1) * W + threadIdx.x + 1;
    out[r * cols + c] = tile[k] + tile[k - W] + tile[k + W] + tile[k - 1] + tile[k + 1];
}

void stencil_launch(const float *d_in, float *d_out, int rows, int cols, int bx, int by)
{
    dim3 grid = dim3((unsigned)((cols + bx - 1) / bx), (unsigned)((rows + by - 1) / by));
    dim3 block = dim3((unsigned)bx, (unsigned)by);
    stencil<<<grid, block, (bx + 2) * (by + 2) * sizeof(float)>>>(d_in, d_out, rows, cols);
}
