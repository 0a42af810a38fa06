/* tests/wrong/8.10-thread-index-only.cu: puzzle 8.10 indexed as in 8.7, by
 * threadIdx.x alone: every block does block 0's elements again, so out[0..3]
 * is written 3 times and out[4..8] never.
 * expect: FAIL: out\[4\] = .*never written; out\[0\.\.3\], block 0's, are right: does i use blockIdx.x */
#include "blocks.h"

__global__ void blocks(const float *a, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n) out[i] = a[i] + 10.0f;
}

void blocks_launch(const float *d_a, float *d_out, int n, int block)
{
    blocks<<<(n + block - 1) / block, block>>>(d_a, d_out, n);
}
