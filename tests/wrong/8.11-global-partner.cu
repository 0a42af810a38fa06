/* tests/wrong/8.11-global-partner.cu: puzzle 8.11 without shared memory:
 * each thread reads its partner's element from global memory too. Every
 * value is right; every element is read twice, 2 global reads per thread.
 * expect: FAIL: thread 0 makes 2 global reads; the puzzle allows 1 per thread */
#include "shared.h"

__global__ void shared_pairs(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + ((i ^ 1) < n ? a[i ^ 1] : 0.0f);
}

void shared_launch(const float *d_a, float *d_out, int n)
{
    shared_pairs<<<(n + SHARED_TPB - 1) / SHARED_TPB, SHARED_TPB>>>(d_a, d_out, n);
}
