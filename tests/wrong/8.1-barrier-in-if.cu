/* tests/wrong/8.1-barrier-in-if.cu: exercise 8.1 with the barrier inside
 * `if (t < step)`: only some threads reach it. The hint must say so, not
 * talk about returning early.
 * expect: FAIL: the kernel stopped with an error
 * hint: if \(t < step\)\? Every thread */
#include "block_sum.h"

__global__ void block_sum(const float *in, float *partial, int n)
{
    extern __shared__ float s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < (unsigned)n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step /= 2) {
        if (t < step) {
            s[t] = s[t] + s[t + step];
            __syncthreads();
        }
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

void block_sum_launch(const float *d_in, float *d_partial, int n, int block)
{
    block_sum<<<(n + block - 1) / block, block, block * sizeof(float)>>>(d_in, d_partial, n);
}
