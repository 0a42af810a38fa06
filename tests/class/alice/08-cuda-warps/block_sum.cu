/* solutions/08-cuda-warps/block_sum.cu: a solution of exercise 8.1.
 *
 * Added to the skeleton exercises/08-cuda-warps/block_sum.cu: the kernel's
 * load, halving loop and final store, and the launch (grid and shared
 * memory size) in block_sum_launch, in place of the placeholders.
 * Graded by: make solution-8.1
 *
 * This is rung 2 of the chapter's reduction ladder (sequential addressing):
 * log2(B) barriers per block, no bank conflict, one global load per element.
 */
#include "block_sum.h"

__global__ void block_sum(const float *in, float *partial, int n)
{
    extern __shared__ float s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < (unsigned)n ? in[i] : 0.0f;                 /* added */
    __syncthreads();                                                    /* added */
    for (unsigned step = blockDim.x / 2; step > 0; step /= 2) {         /* added */
        if (t < step) s[t] = s[t] + s[t + step];     /* added */
        __syncthreads();                                                /* added */
    }
    if (t == 0) partial[blockIdx.x] = s[0];                /* added */
}

void block_sum_launch(const float *d_in, float *d_partial, int n, int block)
{
    int blocks = (n + block - 1) / block;                               /* added */
    block_sum<<<blocks, block, block * sizeof(float)>>>(d_in, d_partial, n);   /* added */
}
