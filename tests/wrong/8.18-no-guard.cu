/* tests/wrong/8.18-no-guard.cu: puzzle 8.18 coalesced (thread t copies c T
 * + t for c < cols: the solution's elements) but with no guard: the launch
 * has T >= rows threads (whole blocks of 128), so cols x T can pass n. Right
 * on a 128 x 128 matrix; on 32 x 8, T = 128 and thread 127 touches 1023.
 * expect: FAIL: the kernel stopped with an error: .*out of bounds
 * hint: every index needs the guard i < n */
#include "coalesce.h"

__global__ void coalesce(const float *in, float *out, int rows, int cols)
{
    (void)rows;
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x, threads = (long long)gridDim.x * blockDim.x;
    for (int c = 0; c < cols; c++) out[c * threads + t] = in[c * threads + t];
}

void coalesce_launch(const float *d_in, float *d_out, int rows, int cols)
{
    coalesce<<<(rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK, COALESCE_BLOCK>>>(d_in, d_out, rows, cols);
}
