/* tests/wrong/8.1-serial-thread0.cu: exercise 8.1 with thread 0 of each
 * block summing the block's elements one after another: no shared memory,
 * no barrier, no tree. Every partial sum is right and each element is
 * loaded once.
 * expect: FAIL: .*barrier */
#include "block_sum.h"

__global__ void block_sum(const float *in, float *partial, int n)
{
    if (threadIdx.x != 0) return;
    float s = 0.0f;
    for (unsigned k = 0; k < blockDim.x; k++) {
        unsigned i = blockIdx.x * blockDim.x + k;
        if (i < (unsigned)n) s += in[i];
    }
    partial[blockIdx.x] = s;
}

void block_sum_launch(const float *d_in, float *d_partial, int n, int block)
{
    block_sum<<<(n + block - 1) / block, block, block * sizeof(float)>>>(d_in, d_partial, n);
}
