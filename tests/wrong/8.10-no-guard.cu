/* tests/wrong/8.10-no-guard.cu: puzzle 8.10 with the right index and grid
 * but no guard: the last block's 3 spare threads (i = 9, 10, 11) read and
 * write past the end.
 * expect: FAIL: no guard: the last block's threads 1 to 3 \(i = 9 to 11\) */
#include "blocks.h"

__global__ void blocks(const float *a, float *out, int n)
{
    (void)n;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i] + 10.0f;
}

void blocks_launch(const float *d_a, float *d_out, int n, int block)
{
    blocks<<<(n + block - 1) / block, block>>>(d_a, d_out, n);
}
