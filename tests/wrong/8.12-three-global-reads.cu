/* tests/wrong/8.12-three-global-reads.cu: puzzle 8.12 without shared memory:
 * every thread reads its whole window from global memory. Every value is
 * right; each element is read by 3 threads, 3 global reads per thread.
 * expect: FAIL: thread 2 makes 3 global reads; the puzzle allows 1 per thread */
#include "pool.h"

__global__ void pool(const float *a, float *out, int n)
{
    (void)n;
    int i = threadIdx.x;
    float sum = a[i];
    if (i >= 1) sum += a[i - 1];
    if (i >= 2) sum += a[i - 2];
    out[i] = sum;
}

void pool_launch(const float *d_a, float *d_out, int n) { pool<<<1, n, n * sizeof(float)>>>(d_a, d_out, n); }
