/* tests/wrong/8.15-serial-global.cu: puzzle 8.15 without shared memory:
 * thread t reads the block's elements up to its own from global memory.
 * Right values; thread t makes t + 1 global reads (8 by thread 7 at B = 8).
 * expect: FAIL: thread 7 makes 8 global reads; the puzzle allows 1 per thread */
#include "prefix_sum.h"

__global__ void prefix_sum(const float *a, float *out, int n)
{
    int start = blockIdx.x * blockDim.x, i = start + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
    for (int j = start; j <= i; j++) sum += a[j];
    out[i] = sum;
}

void prefix_sum_launch(const float *d_a, float *d_out, int n, int block)
{
    prefix_sum<<<(n + block - 1) / block, block, 2 * block * sizeof(float)>>>(d_a, d_out, n);
}
