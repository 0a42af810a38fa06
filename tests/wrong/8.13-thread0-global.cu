/* tests/wrong/8.13-thread0-global.cu: puzzle 8.13 the serial way: thread 0
 * walks both vectors in global memory while the other n - 1 threads wait.
 * The sum is right; thread 0 makes 2n global reads.
 * expect: FAIL: thread 0 makes 16 global reads; the puzzle allows 2 per thread */
#include "dot.h"

__global__ void dot(const float *a, const float *b, float *out, int n)
{
    if (threadIdx.x != 0) return;
    float sum = 0;
    for (int i = 0; i < n; i++) sum += a[i] * b[i];
    out[0] = sum;
}

void dot_launch(const float *d_a, const float *d_b, float *d_out, int n) { dot<<<1, n, n * sizeof(float)>>>(d_a, d_b, d_out, n); }
