/* tests/wrong/8.3-fixed-block.cu: exercise 8.3 with a right kernel and a
 * launch that ignores bx and by: always 16x16 blocks. Every sum is right;
 * the 32x8 and 8x4 blocks the checker asks for are never run.
 * expect: FAIL: the launch ran [0-9]+ blocks of 256 threads; 32x8 blocks */
#include "stencil.h"

__global__ void stencil(const float *in, float *out, int rows, int cols)
{
    extern __shared__ float tile[];
    int W = blockDim.x + 2, H = blockDim.y + 2;
    int r0 = blockIdx.y * blockDim.y - 1, c0 = blockIdx.x * blockDim.x - 1;
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    for (int k = t; k < W * H; k += blockDim.x * blockDim.y) {
        int r = r0 + k / W, c = c0 + k % W;
        tile[k] = r >= 0 && r < rows && c >= 0 && c < cols ? in[r * cols + c] : 0.0f;
    }
    __syncthreads();
    int r = r0 + 1 + threadIdx.y, c = c0 + 1 + threadIdx.x;
    int k = (threadIdx.y + 1) * W + threadIdx.x + 1;
    if (r < rows && c < cols)
        out[r * cols + c] = tile[k] + tile[k - W] + tile[k + W] + tile[k - 1] + tile[k + 1];
}

void stencil_launch(const float *d_in, float *d_out, int rows, int cols, int bx, int by)
{
    (void)bx; (void)by;
    dim3 grid = dim3((unsigned)((cols + 15) / 16), (unsigned)((rows + 15) / 16));
    stencil<<<grid, dim3(16, 16), 18 * 18 * sizeof(float)>>>(d_in, d_out, rows, cols);
}
