/* tests/wrong/8.5-thread-zero-loops.cu: puzzle 8.5 the serial way: thread 0
 * walks the whole array while the other n - 1 threads do nothing. Every value
 * is right; thread 0 makes n reads and n writes.
 * expect: FAIL: thread 0 makes 8 global reads; the puzzle allows 1 per thread */
#include "map.h"

__global__ void map(const float *a, float *out, int n)
{
    if (threadIdx.x != 0) return;
    for (int i = 0; i < n; i++) out[i] = a[i] + 10.0f;
}

void map_launch(const float *d_a, float *d_out, int n) { map<<<1, n>>>(d_a, d_out, n); }
