/* tests/wrong/8.6-thread-zero-loops.cu: puzzle 8.6 the serial way: thread 0
 * zips the whole arrays while the other n - 1 threads wait. Every value is
 * right; thread 0 makes 2n reads (16 at n = 8) and n writes.
 * expect: FAIL: thread 0 makes 16 global reads; the puzzle allows 2 per thread */
#include "zip.h"

__global__ void zip(const float *a, const float *b, float *out, int n)
{
    if (threadIdx.x != 0) return;
    for (int i = 0; i < n; i++) out[i] = a[i] + b[i];
}

void zip_launch(const float *d_a, const float *d_b, float *d_out, int n) { zip<<<1, n>>>(d_a, d_b, d_out, n); }
