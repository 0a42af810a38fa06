/* tests/wrong/8.3-naive.cu: exercise 8.3 without the tile: each thread reads
 * its five values straight from global memory. Every sum is right, but each
 * input is loaded 5 times, once for every output that needs it.
 * expect: FAIL: [0-9]+ global loads for [0-9]+ outputs \([3-5]\.[0-9] each\) */
#include "stencil.h"

__device__ static float at(const float *a, int rows, int cols, int r, int c)
{
    return r >= 0 && r < rows && c >= 0 && c < cols ? a[r * cols + c] : 0.0f;
}

__global__ void stencil(const float *in, float *out, int rows, int cols)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols)
        out[r * cols + c] = at(in, rows, cols, r, c) + at(in, rows, cols, r - 1, c) + at(in, rows, cols, r + 1, c) +
                            at(in, rows, cols, r, c - 1) + at(in, rows, cols, r, c + 1);
}

void stencil_launch(const float *d_in, float *d_out, int rows, int cols, int bx, int by)
{
    dim3 grid = dim3((unsigned)((cols + bx - 1) / bx), (unsigned)((rows + by - 1) / by));
    dim3 block = dim3((unsigned)bx, (unsigned)by);
    stencil<<<grid, block, 0>>>(d_in, d_out, rows, cols);
}
