/* tests/wrong/8.3-clamp-edge.cu: exercise 8.3 with the halo outside the
 * matrix filled by clamping to the nearest border cell (the "replicate"
 * boundary of image filters) where the contract says a neighbour outside
 * the matrix counts as 0. Every output away from the border is right.
 * expect: FAIL: out\[0\]\[0\] = .*, want .*on the matrix.s border, a neighbour outside the matrix counts as 0 */
#include "stencil.h"

__global__ void stencil(const float *in, float *out, int rows, int cols)
{
    extern __shared__ float tile[];
    int W = blockDim.x + 2, H = blockDim.y + 2;
    int r0 = blockIdx.y * blockDim.y - 1, c0 = blockIdx.x * blockDim.x - 1;
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    for (int k = t; k < W * H; k += blockDim.x * blockDim.y) {
        int r = min(max(r0 + k / W, 0), rows - 1), c = min(max(c0 + k % W, 0), cols - 1);
        tile[k] = in[r * cols + c];
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
