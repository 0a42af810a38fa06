/* tests/wrong/8.3-swapped-width.cu: exercise 8.3 with the tile's row length
 * taken from blockDim.y where it is blockDim.x (W = by + 2). With square
 * 16x16 blocks the two agree and every sum is right; with 32x8 blocks the
 * tile's rows overlap and the halo comes from the wrong cells.
 * expect: FAIL: out\[[0-9]+\]\[[0-9]+\] = .*want */
#include "stencil.h"

__global__ void stencil(const float *in, float *out, int rows, int cols)
{
    extern __shared__ float tile[];
    int W = blockDim.y + 2, H = blockDim.x + 2;
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
    stencil<<<grid, block, (bx + 2) * (by + 2) * sizeof(float)>>>(d_in, d_out, rows, cols);
}
