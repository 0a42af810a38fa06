/* tests/wrong/8.3-static-tile.cu: exercise 8.3 with a static shared tile
 * sized for the largest block the author tried, 34 x 34 floats, where the
 * contract asks for (bx+2)(by+2) floats of dynamic shared memory sized by
 * the launch. Every block the checker uses fits, so every sum is right; a
 * 64x16 block would not, and every block reserves 4624 bytes whatever its
 * size (for 8x4 blocks 240 would do).
 * expect: FAIL: .*static */
#include "stencil.h"

__global__ void stencil(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[34 * 34];
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
    dim3 grid = dim3((unsigned)((cols + bx - 1) / bx), (unsigned)((rows + by - 1) / by));
    dim3 block = dim3((unsigned)bx, (unsigned)by);
    stencil<<<grid, block, 0>>>(d_in, d_out, rows, cols);
}
