/* tests/wrong/8.8-swapped.cu: puzzle 8.8 with row and column swapped:
 * r = threadIdx.x, c = threadIdx.y, guarded and indexed right. On a square
 * matrix in a square block it passes; on 2 x 5 in a 6 x 3 block threadIdx.y
 * stops at 2, so columns 3 and 4 have no thread.
 * expect: FAIL: out\(0, 3\) = .*rows and columns swapped */
#include "map2d.h"

__global__ void map2d(const float *a, float *out, int rows, int cols)
{
    int r = threadIdx.x, c = threadIdx.y;
    if (r < rows && c < cols) out[r * cols + c] = a[r * cols + c] + 10.0f;
}

void map2d_launch(const float *d_a, float *d_out, int rows, int cols, int bx, int by)
{
    map2d<<<1, dim3(bx, by)>>>(d_a, d_out, rows, cols);
}
