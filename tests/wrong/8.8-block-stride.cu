/* tests/wrong/8.8-block-stride.cu: puzzle 8.8 with the block's width as the
 * row stride: r * blockDim.x + c is the thread's number in the block, not the
 * cell's place in the matrix (6 where the row is 5 wide), so row 1 starts
 * at element 6 and its last cell is past the end.
 * expect: FAIL: thread \(4,1\), which has cell \(r 1, c 4\), touches a\[10\].*row stride */
#include "map2d.h"

__global__ void map2d(const float *a, float *out, int rows, int cols)
{
    int c = threadIdx.x, r = threadIdx.y;
    if (r < rows && c < cols) out[r * blockDim.x + c] = a[r * blockDim.x + c] + 10.0f;
}

void map2d_launch(const float *d_a, float *d_out, int rows, int cols, int bx, int by)
{
    map2d<<<1, dim3(bx, by)>>>(d_a, d_out, rows, cols);
}
