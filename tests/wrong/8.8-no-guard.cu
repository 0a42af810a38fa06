/* tests/wrong/8.8-no-guard.cu: puzzle 8.8 with no guard at all: every
 * thread of the 6 x 3 block touches element y * cols + x, and the spare ones
 * on both sides run off the end.
 * expect: FAIL: no guard: threads with threadIdx.x >= cols = 5 and threads with threadIdx.y >= rows = 2 */
#include "map2d.h"

__global__ void map2d(const float *a, float *out, int rows, int cols)
{
    (void)rows;
    int c = threadIdx.x, r = threadIdx.y;
    out[r * cols + c] = a[r * cols + c] + 10.0f;
}

void map2d_launch(const float *d_a, float *d_out, int rows, int cols, int bx, int by)
{
    map2d<<<1, dim3(bx, by)>>>(d_a, d_out, rows, cols);
}
