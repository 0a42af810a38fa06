/* tests/wrong/8.11-no-sync.cu: puzzle 8.11 without the barrier: a thread
 * may read its partner's slot before the partner stored it. On the emulator
 * (and often on a GPU) the values can come out right; racecheck reports the
 * unordered store and load whatever the timing.
 * expect: FAIL: the emulator's checks found a problem .*racecheck
 * hint: Put __syncthreads\(\) after every thread's store */
#include "shared.h"

__global__ void shared_pairs(const float *a, float *out, int n)
{
    __shared__ float s[SHARED_TPB];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    float mine = i < n ? a[i] : 0.0f;
    s[t] = mine;
    if (i < n) out[i] = mine + s[t ^ 1];
}

void shared_launch(const float *d_a, float *d_out, int n)
{
    shared_pairs<<<(n + SHARED_TPB - 1) / SHARED_TPB, SHARED_TPB>>>(d_a, d_out, n);
}
