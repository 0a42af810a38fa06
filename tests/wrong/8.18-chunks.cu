/* tests/wrong/8.18-chunks.cu: puzzle 8.18 the CPU way: the n elements split
 * into equal contiguous chunks, one per thread (ceil(n / T) each). Balanced,
 * and each thread walks consecutive floats, but in one step the lanes are a
 * chunk apart: on 32 x 8 chunks of 2 (8 sectors a request), on 37 x 53
 * chunks of 16 (32). Every value is right.
 * expect: FAIL: 8.00 sectors per load request */
#include "coalesce.h"

__global__ void coalesce(const float *in, float *out, int rows, int cols)
{
    long long n = (long long)rows * cols, threads = (long long)gridDim.x * blockDim.x;
    long long chunk = (n + threads - 1) / threads, t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (long long i = t * chunk; i < (t + 1) * chunk && i < n; i++) out[i] = in[i];
}

void coalesce_launch(const float *d_in, float *d_out, int rows, int cols)
{
    coalesce<<<(rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK, COALESCE_BLOCK>>>(d_in, d_out, rows, cols);
}
