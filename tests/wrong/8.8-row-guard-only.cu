/* tests/wrong/8.8-row-guard-only.cu: puzzle 8.8 guarded on the row only:
 * threads with x >= cols index r * cols + x, which is the next row's cell
 * (the same value, written twice) or, in the last row, past the end.
 * expect: FAIL: the column is not guarded */
#include "map2d.h"

__global__ void map2d(const float *a, float *out, int rows, int cols)
{
    int c = threadIdx.x, r = threadIdx.y;
    if (r < rows) out[r * cols + c] = a[r * cols + c] + 10.0f;
}

void map2d_launch(const float *d_a, float *d_out, int rows, int cols, int bx, int by)
{
    map2d<<<1, dim3(bx, by)>>>(d_a, d_out, rows, cols);
}
