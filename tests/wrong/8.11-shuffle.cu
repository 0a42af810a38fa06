/* tests/wrong/8.11-shuffle.cu: puzzle 8.11 with a warp shuffle in place of
 * shared memory: right, and fast, in a block of 8 (one warp), but it is not
 * the puzzle's way (a block's threads in different warps cannot shuffle).
 * expect: FAIL: 0 stores to shared memory for 11 elements */
#include "shared.h"

__global__ void shared_pairs(const float *a, float *out, int n)
{
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    float mine = i < n ? a[i] : 0.0f;
    float other = __shfl_xor_sync(0xFFu, mine, 1, SHARED_TPB);
    if (i < n) out[i] = mine + other;
}

void shared_launch(const float *d_a, float *d_out, int n)
{
    shared_pairs<<<(n + SHARED_TPB - 1) / SHARED_TPB, SHARED_TPB>>>(d_a, d_out, n);
}
