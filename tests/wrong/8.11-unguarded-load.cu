/* tests/wrong/8.11-unguarded-load.cu: puzzle 8.11 with the load unguarded:
 * the last block's spare threads (i = 11 to 15 for n = 11) load a[i] past
 * the end to fill their slots, where 0 was meant.
 * expect: FAIL: the threads past the end \(i = 11 to 15\) load a\[i\] */
#include "shared.h"

__global__ void shared_pairs(const float *a, float *out, int n)
{
    __shared__ float s[SHARED_TPB];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    float mine = a[i];
    s[t] = mine;
    __syncthreads();
    if (i < n) out[i] = mine + s[t ^ 1];
}

void shared_launch(const float *d_a, float *d_out, int n)
{
    shared_pairs<<<(n + SHARED_TPB - 1) / SHARED_TPB, SHARED_TPB>>>(d_a, d_out, n);
}
