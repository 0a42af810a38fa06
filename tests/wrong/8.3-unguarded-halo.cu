/* tests/wrong/8.3-unguarded-halo.cu: exercise 8.3 loading the halo without
 * testing the row and column: on the matrix's border the halo cells lie
 * outside it (row -1, column -1, past the last row), and the load reads
 * outside the array instead of taking 0.
 * expect: FAIL: the kernel stopped with an error: .*out of bounds
 * hint: halo cells outside the matrix are 0 */
#include "stencil.h"

__global__ void stencil(const float *in, float *out, int rows, int cols)
{
    extern __shared__ float tile[];
    int W = blockDim.x + 2, H = blockDim.y + 2;
    int r0 = blockIdx.y * blockDim.y - 1, c0 = blockIdx.x * blockDim.x - 1;
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    for (int k = t; k < W * H; k += blockDim.x * blockDim.y) {
        int r = r0 + k / W, c = c0 + k % W;
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
