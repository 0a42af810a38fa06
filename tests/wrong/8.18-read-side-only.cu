/* tests/wrong/8.18-read-side-only.cu: puzzle 8.18 "fixed" on the read side
 * only: the load's index is swapped to in[c * rows + r], so neighbouring
 * lanes (rows) read neighbouring floats, but the store still goes to row r.
 * The two indices no longer name the same element: it copies a transpose.
 * expect: FAIL: out\[1\] .*that is in\[32\]'s value */
#include "coalesce.h"

__global__ void coalesce(const float *in, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    for (int c = 0; c < cols; c++) out[(long long)r * cols + c] = in[(long long)c * rows + r];
}

void coalesce_launch(const float *d_in, float *d_out, int rows, int cols)
{
    coalesce<<<(rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK, COALESCE_BLOCK>>>(d_in, d_out, rows, cols);
}
