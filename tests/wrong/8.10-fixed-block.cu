/* tests/wrong/8.10-fixed-block.cu: puzzle 8.10 launched the way many
 * programs do, 256 threads per block whatever it is asked: every value is
 * right, but the block size is the caller's (the checker gives 4, 8, ...).
 * expect: FAIL: the launch's blocks have 256 threads; the puzzle gives block = 4 */
#include "blocks.h"

__global__ void blocks(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + 10.0f;
}

void blocks_launch(const float *d_a, float *d_out, int n, int block)
{
    (void)block;
    blocks<<<(n + 255) / 256, 256>>>(d_a, d_out, n);
}
