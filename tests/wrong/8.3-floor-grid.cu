/* tests/wrong/8.3-floor-grid.cu: exercise 8.3 with a right kernel and a grid
 * of cols / bx by rows / by blocks, rounded down: the partial tiles on the
 * right and bottom edges are never launched (for 1x1, no block at all).
 * expect: FAIL: the kernel stopped with an error: .*a grid or block size is 0 */
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
    dim3 grid = dim3((unsigned)(cols / bx), (unsigned)(rows / by));
    dim3 block = dim3((unsigned)bx, (unsigned)by);
    stencil<<<grid, block, (bx + 2) * (by + 2) * sizeof(float)>>>(d_in, d_out, rows, cols);
}
