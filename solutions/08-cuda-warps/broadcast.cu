/* solutions/08-cuda-warps/broadcast.cu: a solution of puzzle 8.9, broadcast.
 *
 * 8.8's thread-to-cell map (c = threadIdx.x, r = threadIdx.y) and its
 * two-sided guard; the row picks the element of the column vector a, the
 * column the element of the row vector b. Every thread of a row reads the
 * same a[r] and every thread of a column the same b[c]: 2 reads and 1
 * write per thread, 2 rows cols reads in all although a and b hold only
 * rows + cols numbers (on a GPU the repeats hit in cache, or a block would
 * stage a and b in shared memory: 8.11's idea).
 */
#include "exercise.h"
#include "broadcast.h"

__global__ void broadcast(const float *a, const float *b, float *out, int rows, int cols)
{
    int c = threadIdx.x, r = threadIdx.y;
    if (r < rows && c < cols) out[r * cols + c] = a[r] + b[c];
}

void broadcast_launch(const float *d_a, const float *d_b, float *d_out, int rows, int cols, int bx, int by)
{
    broadcast<<<1, dim3(bx, by)>>>(d_a, d_b, d_out, rows, cols);
}
