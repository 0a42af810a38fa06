/* tests/wrong/8.16-serial-thread0.cu: puzzle 8.16 with the row in shared
 * memory but thread 0 adding it one element at a time. Right values, 1
 * global read per thread; thread 0 reads cols cells of shared memory:
 * within 3 log2(B) + 2 at 3 x 5 (5 of 11), not at 7 x 33 (33 of 20).
 * expect: FAIL: thread 0 of block 0 makes 33 shared-memory reads; a tree over B = 64 */
#include "axis_sum.h"

__global__ void axis_sum(const float *a, float *out, int rows, int cols)
{
    extern __shared__ float s[];
    (void)rows;
    int row = blockIdx.y, c = threadIdx.x;
    s[c] = c < cols ? a[row * cols + c] : 0.0f;
    __syncthreads();
    if (c != 0) return;
    float sum = 0.0f;
    for (int j = 0; j < cols; j++) sum += s[j];
    out[row] = sum;
}

void axis_sum_launch(const float *d_a, float *d_out, int rows, int cols)
{
    int block = axis_sum_block(cols);
    axis_sum<<<dim3(1, rows), block, block * sizeof(float)>>>(d_a, d_out, rows, cols);
}
