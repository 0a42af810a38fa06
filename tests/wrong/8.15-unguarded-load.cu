/* tests/wrong/8.15-unguarded-load.cu: puzzle 8.15 that loads a[i] without
 * testing i < n: the partial last block (n = 12 in blocks of 8) reads
 * a[12] to a[15], past the end of a.
 * expect: FAIL: the kernel stopped with an error.*out of bounds */
#include "prefix_sum.h"

__global__ void prefix_sum(const float *a, float *out, int n)
{
    extern __shared__ float s[];
    int B = blockDim.x, t = threadIdx.x, i = blockIdx.x * B + t;
    float *from = s, *to = s + B;
    from[t] = a[i];
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
