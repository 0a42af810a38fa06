/* tests/wrong/8.15-serial-shared.cu: puzzle 8.15 with the elements in
 * shared memory but each thread adding its prefix one element at a time:
 * right values, no race, and thread t reads t + 1 cells. Within the budget
 * at B = 8 (8 reads, 16 allowed); at B = 32 thread 31 reads 32, 24 allowed.
 * expect: FAIL: thread 31 makes 32 shared-memory reads; a scan of log2\(32\) = 5 steps */
#include "prefix_sum.h"

__global__ void prefix_sum(const float *a, float *out, int n)
{
    extern __shared__ float s[];
    int B = blockDim.x, t = threadIdx.x, i = blockIdx.x * B + t;
    s[t] = i < n ? a[i] : 0.0f;
    __syncthreads();
    float sum = 0.0f;
    for (int j = 0; j <= t; j++) sum += s[j];
    if (i < n) out[i] = sum;
}

void prefix_sum_launch(const float *d_a, float *d_out, int n, int block)
{
    prefix_sum<<<(n + block - 1) / block, block, 2 * block * sizeof(float)>>>(d_a, d_out, n);
}
