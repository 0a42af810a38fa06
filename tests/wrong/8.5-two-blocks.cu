/* tests/wrong/8.5-two-blocks.cu: puzzle 8.5 with the given launch changed to
 * 2 blocks of n/2 threads (and a kernel that follows it): every value is
 * right for an even n, but the puzzle's launch is not the one graded.
 * expect: FAIL: the launch ran 2 blocks of 4 threads */
#include "map.h"

__global__ void map(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + 10.0f;
}

void map_launch(const float *d_a, float *d_out, int n) { map<<<2, (n + 1) / 2>>>(d_a, d_out, n); }
