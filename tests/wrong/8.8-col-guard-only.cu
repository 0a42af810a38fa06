/* tests/wrong/8.8-col-guard-only.cu: puzzle 8.8 guarded on the column only
 * (8.7's guard, with c for i): the threads of the block's rows past the
 * matrix, y >= rows, index rows past the last one.
 * expect: FAIL: the row is not guarded */
#include "map2d.h"

__global__ void map2d(const float *a, float *out, int rows, int cols)
{
    (void)rows;
    int c = threadIdx.x, r = threadIdx.y;
    if (c < cols) out[r * cols + c] = a[r * cols + c] + 10.0f;
}

void map2d_launch(const float *d_a, float *d_out, int rows, int cols, int bx, int by)
{
    map2d<<<1, dim3(bx, by)>>>(d_a, d_out, rows, cols);
}
