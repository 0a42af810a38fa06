/* tests/wrong/8.15-exclusive.cu: puzzle 8.15 one place off: each thread
 * loads its left neighbour's element (0 for the block's first), so the
 * scan gives the sum of the elements before a[i] (an exclusive scan), not
 * up to and including it. The first output of every block is 0.
 * expect: FAIL: out\[0\] = 0, .*an exclusive scan */
#include "prefix_sum.h"

__global__ void prefix_sum(const float *a, float *out, int n)
{
    extern __shared__ float s[];
    int B = blockDim.x, t = threadIdx.x, i = blockIdx.x * B + t;
    float *from = s, *to = s + B;
    from[t] = t > 0 && i - 1 < n ? a[i - 1] : 0.0f;
    __syncthreads();
    for (int d = 1; d < B; d *= 2) {
        to[t] = t >= d ? from[t] + from[t - d] : from[t];
        __syncthreads();
        float *swap = from;
        from = to;
        to = swap;
    }
    if (i < n) out[i] = from[t];
}

void prefix_sum_launch(const float *d_a, float *d_out, int n, int block)
{
    prefix_sum<<<(n + block - 1) / block, block, 2 * block * sizeof(float)>>>(d_a, d_out, n);
}
