/* tests/wrong/8.9-row-per-thread.cu: puzzle 8.9 with one thread per row:
 * thread (0, r) reads a[r] once and walks the row, reading every b[c]. All
 * values right, nothing out of bounds; thread 0 makes 1 + 5 reads and 5
 * writes on the 2 x 5 matrix.
 * expect: FAIL: thread 0 makes 6 global reads; the puzzle allows 2 per thread */
#include "broadcast.h"

__global__ void broadcast(const float *a, const float *b, float *out, int rows, int cols)
{
    int r = threadIdx.y;
    if (threadIdx.x != 0 || r >= rows) return;
    float ar = a[r];
    for (int c = 0; c < cols; c++) out[r * cols + c] = ar + b[c];
}

void broadcast_launch(const float *d_a, const float *d_b, float *d_out, int rows, int cols, int bx, int by)
{
    broadcast<<<1, dim3(bx, by)>>>(d_a, d_b, d_out, rows, cols);
}
