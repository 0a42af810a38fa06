/* tests/wrong/8.18-square-only.cu: puzzle 8.18 coalesced, tried on a square
 * matrix only: the element count is written cols x cols, which is rows x
 * cols when they are equal. On 32 x 8 it copies 64 of the 256 elements.
 * expect: FAIL: out\[64\] .*never written */
#include "coalesce.h"

__global__ void coalesce(const float *in, float *out, int rows, int cols)
{
    (void)rows;
    long long n = (long long)cols * cols, threads = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += threads) out[i] = in[i];
}

void coalesce_launch(const float *d_in, float *d_out, int rows, int cols)
{
    coalesce<<<(rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK, COALESCE_BLOCK>>>(d_in, d_out, rows, cols);
}
