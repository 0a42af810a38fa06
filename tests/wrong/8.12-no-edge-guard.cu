/* tests/wrong/8.12-no-edge-guard.cu: puzzle 8.12 without the guards at the
 * start of the array: threads 0 and 1 read s[-2] and s[-1], which is not
 * shared memory the block owns (on a GPU: whatever lies there, or a fault).
 * expect: FAIL: the kernel stopped with an error */
#include "pool.h"

__global__ void pool(const float *a, float *out, int n)
{
    extern __shared__ float s[];
    (void)n;
    int i = threadIdx.x;
    s[i] = a[i];
    __syncthreads();
    out[i] = s[i - 2] + s[i - 1] + s[i];
}

void pool_launch(const float *d_a, float *d_out, int n) { pool<<<1, n, n * sizeof(float)>>>(d_a, d_out, n); }
