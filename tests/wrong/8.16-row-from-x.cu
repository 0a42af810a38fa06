/* tests/wrong/8.16-row-from-x.cu: puzzle 8.16 that takes the row from
 * blockIdx.x, as in a 1D grid. The grid is 1 x rows: blockIdx.x is 0 in
 * every block, so every block sums row 0 and writes out[0].
 * expect: FAIL: out\[1\] = .*never written. The grid is 1 x rows */
#include "axis_sum.h"

__global__ void axis_sum(const float *a, float *out, int rows, int cols)
{
    extern __shared__ float s[];
    (void)rows;
    int row = blockIdx.x, c = threadIdx.x;
    s[c] = c < cols ? a[row * cols + c] : 0.0f;
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
