/* tests/wrong/8.16-thread0-global.cu: puzzle 8.16 the serial way: thread 0
 * of each block reads its row from global memory. Right values; thread 0
 * makes cols global reads (5 at 3 x 5).
 * expect: FAIL: thread 0 makes 5 global reads; the puzzle allows 1 per thread */
#include "axis_sum.h"

__global__ void axis_sum(const float *a, float *out, int rows, int cols)
{
    (void)rows;
    int row = blockIdx.y;
    if (threadIdx.x != 0) return;
    float sum = 0.0f;
    for (int c = 0; c < cols; c++) sum += a[row * cols + c];
    out[row] = sum;
}

void axis_sum_launch(const float *d_a, float *d_out, int rows, int cols)
{
    int block = axis_sum_block(cols);
    axis_sum<<<dim3(1, rows), block, block * sizeof(float)>>>(d_a, d_out, rows, cols);
}
