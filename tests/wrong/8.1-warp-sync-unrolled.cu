/* tests/wrong/8.1-warp-sync-unrolled.cu: exercise 8.1 with the last warp's
 * steps "unrolled" the pre-Volta way: no barrier and no __syncwarp below 32,
 * trusting the warp to run in lock-step. Since Volta that is a race, and
 * racecheck must name it (the sums may even come out right on some GPUs).
 * expect: FAIL
 * hint: __syncwarp\(\) between the steps */
#include "block_sum.h"

__global__ void block_sum(const float *in, float *partial, int n)
{
    extern __shared__ float s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < (unsigned)n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 32; step /= 2) {
        if (t < step) s[t] = s[t] + s[t + step];
        __syncthreads();
    }
    unsigned first = blockDim.x >= 64 ? 32 : blockDim.x / 2;
    if (t < first) {
        volatile float *v = s;
        for (unsigned step = first; step > 0; step /= 2) v[t] = v[t] + v[t + step];
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

void block_sum_launch(const float *d_in, float *d_partial, int n, int block)
{
    block_sum<<<(n + block - 1) / block, block, block * sizeof(float)>>>(d_in, d_partial, n);
}
