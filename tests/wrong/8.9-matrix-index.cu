/* tests/wrong/8.9-matrix-index.cu: puzzle 8.9 written from 8.8's kernel:
 * a read at the matrix's index r * cols + c as if a were a rows x cols
 * matrix too. Row 0 reads a[0..4] of a 2-element a: past the end.
 * expect: FAIL: thread \(2,0\), which has cell \(r 0, c 2\), reads a\[2\].*a is a vector */
#include "broadcast.h"

__global__ void broadcast(const float *a, const float *b, float *out, int rows, int cols)
{
    int c = threadIdx.x, r = threadIdx.y;
    if (r < rows && c < cols) out[r * cols + c] = a[r * cols + c] + b[c];
}

void broadcast_launch(const float *d_a, const float *d_b, float *d_out, int rows, int cols, int bx, int by)
{
    broadcast<<<1, dim3(bx, by)>>>(d_a, d_b, d_out, rows, cols);
}
