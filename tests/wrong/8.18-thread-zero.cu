/* tests/wrong/8.18-thread-zero.cu: puzzle 8.18 by one thread: thread 0
 * copies all n elements while the rest wait. Each request has one lane and
 * one sector (below 4!), but there are n of them, where ceil(n / 32) full
 * ones would do: 8 to 32 times the sectors. Every value is right.
 * expect: FAIL: 256 load requests for 256 elements */
#include "coalesce.h"

__global__ void coalesce(const float *in, float *out, int rows, int cols)
{
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    for (long long i = 0; i < (long long)rows * cols; i++) out[i] = in[i];
}

void coalesce_launch(const float *d_in, float *d_out, int rows, int cols)
{
    coalesce<<<(rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK, COALESCE_BLOCK>>>(d_in, d_out, rows, cols);
}
