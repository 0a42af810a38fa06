/* tests/wrong/8.10-one-extra-block.cu: puzzle 8.10 with the grid
 * n / block + 1, right for 9 in blocks of 4 (3 blocks) but one block too
 * many when block divides n: 8 in blocks of 4 gets 3 blocks, the third with
 * nothing to do.
 * expect: FAIL: the launch ran 3 blocks of 4 threads for n = 8, where 2 cover it */
#include "blocks.h"

__global__ void blocks(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + 10.0f;
}

void blocks_launch(const float *d_a, float *d_out, int n, int block)
{
    blocks<<<n / block + 1, block>>>(d_a, d_out, n);
}
