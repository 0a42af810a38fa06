/* tests/wrong/8.9-swapped-vectors.cu: puzzle 8.9 with the vectors swapped,
 * a[c] + b[r]: on a square matrix every value is wrong but in range; on the
 * 2 x 5 matrix of the picture thread (2,0) reads a[2], past the end of the 2
 * numbers of a.
 * expect: FAIL: thread \(2,0\), which has cell \(r 0, c 2\), reads a\[2\].*a is indexed by the column */
#include "broadcast.h"

__global__ void broadcast(const float *a, const float *b, float *out, int rows, int cols)
{
    int c = threadIdx.x, r = threadIdx.y;
    if (r < rows && c < cols) out[r * cols + c] = a[c] + b[r];
}

void broadcast_launch(const float *d_a, const float *d_b, float *d_out, int rows, int cols, int bx, int by)
{
    broadcast<<<1, dim3(bx, by)>>>(d_a, d_b, d_out, rows, cols);
}
