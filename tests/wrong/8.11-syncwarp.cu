/* tests/wrong/8.11-syncwarp.cu: puzzle 8.11 with __syncwarp() for the
 * barrier: it orders the lanes of one warp, which is the whole block only
 * because a block of 8 is one warp. A passes-by-luck answer: with 64 threads
 * per block, threads of other warps would race.
 * expect: FAIL: 0 __syncthreads\(\) in 2 blocks */
#include "shared.h"

__global__ void shared_pairs(const float *a, float *out, int n)
{
    __shared__ float s[SHARED_TPB];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    float mine = i < n ? a[i] : 0.0f;
    s[t] = mine;
    __syncwarp(0xFFu);
    if (i < n) out[i] = mine + s[t ^ 1];
}

void shared_launch(const float *d_a, float *d_out, int n)
{
    shared_pairs<<<(n + SHARED_TPB - 1) / SHARED_TPB, SHARED_TPB>>>(d_a, d_out, n);
}
