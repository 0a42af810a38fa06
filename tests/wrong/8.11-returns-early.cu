/* tests/wrong/8.11-returns-early.cu: puzzle 8.11 with 8.7's guard as an
 * early return: the spare threads leave before storing their slot and
 * before the barrier, which the rest of the block then waits at for them.
 * expect: FAIL: the kernel stopped with an error: .*exited
 * hint: returned before the barrier */
#include "shared.h"

__global__ void shared_pairs(const float *a, float *out, int n)
{
    __shared__ float s[SHARED_TPB];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= n) return;
    s[t] = a[i];
    __syncthreads();
    out[i] = s[t] + s[t ^ 1];
}

void shared_launch(const float *d_a, float *d_out, int n)
{
    shared_pairs<<<(n + SHARED_TPB - 1) / SHARED_TPB, SHARED_TPB>>>(d_a, d_out, n);
}
