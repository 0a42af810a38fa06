/* tests/wrong/8.18-given-rows.cu: puzzle 8.18 handed in as given: thread r
 * copies row r, so one step's 32 lanes are a row apart, 32 sectors per
 * request for 128 useful bytes. Every value is right.
 * expect: FAIL: 32.00 sectors per load request .*the puzzle allows 4 */
#include "coalesce.h"

__global__ void coalesce(const float *in, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    for (int c = 0; c < cols; c++) out[(long long)r * cols + c] = in[(long long)r * cols + c];
}

void coalesce_launch(const float *d_in, float *d_out, int rows, int cols)
{
    coalesce<<<(rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK, COALESCE_BLOCK>>>(d_in, d_out, rows, cols);
}
