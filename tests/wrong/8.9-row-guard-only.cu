/* tests/wrong/8.9-row-guard-only.cu: puzzle 8.9 guarded on the row only:
 * the threads of the spare column read b[cols], past the end of b (and write
 * into the next row's first cell).
 * expect: FAIL: the column is not guarded */
#include "broadcast.h"

__global__ void broadcast(const float *a, const float *b, float *out, int rows, int cols)
{
    int c = threadIdx.x, r = threadIdx.y;
    if (r < rows) out[r * cols + c] = a[r] + b[c];
}

void broadcast_launch(const float *d_a, const float *d_b, float *d_out, int rows, int cols, int bx, int by)
{
    broadcast<<<1, dim3(bx, by)>>>(d_a, d_b, d_out, rows, cols);
}
