/* tests/wrong/8.18-two-neighbours.cu: puzzle 8.18 with each thread copying
 * two neighbours, 2t and 2t + 1, as two float accesses (a float2 by hand).
 * Each access's lanes are 2 floats apart: 256 bytes spanned, 8 sectors per
 * request, half of each unused by that request. Every value is right.
 * expect: FAIL: 8.00 sectors per load request */
#include "coalesce.h"

__global__ void coalesce(const float *in, float *out, int rows, int cols)
{
    long long n = (long long)rows * cols, threads = (long long)gridDim.x * blockDim.x;
    for (long long i = 2 * ((long long)blockIdx.x * blockDim.x + threadIdx.x); i < n; i += 2 * threads) {
        out[i] = in[i];
        if (i + 1 < n) out[i + 1] = in[i + 1];
    }
}

void coalesce_launch(const float *d_in, float *d_out, int rows, int cols)
{
    coalesce<<<(rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK, COALESCE_BLOCK>>>(d_in, d_out, rows, cols);
}
