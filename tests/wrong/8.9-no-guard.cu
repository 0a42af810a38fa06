/* tests/wrong/8.9-no-guard.cu: puzzle 8.9 with no guard: the spare column
 * of the block (x = 5) reads b[5] and the spare row (y = 2) reads a[2], both
 * past the end.
 * expect: FAIL: no guard: threads with threadIdx.x >= cols = 5 and threads with threadIdx.y >= rows = 2 */
#include "broadcast.h"

__global__ void broadcast(const float *a, const float *b, float *out, int rows, int cols)
{
    (void)rows;
    int c = threadIdx.x, r = threadIdx.y;
    out[r * cols + c] = a[r] + b[c];
}

void broadcast_launch(const float *d_a, const float *d_b, float *d_out, int rows, int cols, int bx, int by)
{
    broadcast<<<1, dim3(bx, by)>>>(d_a, d_b, d_out, rows, cols);
}
