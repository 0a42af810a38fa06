/* tests/wrong/8.16-no-column-guard.cu: puzzle 8.16 where every thread of
 * the block loads a[row * cols + c], also for c >= cols: the B - cols
 * extra threads read the next row's first elements (and the last row's
 * read past the end of a, which memcheck stops first).
 * expect: FAIL: the kernel stopped with an error.*out of bounds */
#include "axis_sum.h"

__global__ void axis_sum(const float *a, float *out, int rows, int cols)
{
    extern __shared__ float s[];
    (void)rows; (void)cols;
    int row = blockIdx.y, c = threadIdx.x;
    s[c] = a[row * cols + c];
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (c < half) s[c] += s[c + half];
        __syncthreads();
    }
    if (c == 0) out[row] = s[0];
}

void axis_sum_launch(const float *d_a, float *d_out, int rows, int cols)
{
    int block = axis_sum_block(cols);
    axis_sum<<<dim3(1, rows), block, block * sizeof(float)>>>(d_a, d_out, rows, cols);
}
