/* tests/wrong/8.1-no-shared-bytes.cu: exercise 8.1 launched with 0 bytes of
 * dynamic shared memory. The hint must name the launch's third argument.
 * expect: FAIL: the kernel stopped with an error
 * hint: the dynamic shared array */
#include "block_sum.h"

__global__ void block_sum(const float *in, float *partial, int n)
{
    extern __shared__ float s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < (unsigned)n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step /= 2) {
        if (t < step) s[t] = s[t] + s[t + step];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

void block_sum_launch(const float *d_in, float *d_partial, int n, int block)
{
    block_sum<<<(n + block - 1) / block, block, 0>>>(d_in, d_partial, n);
}
