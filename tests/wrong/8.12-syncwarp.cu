/* tests/wrong/8.12-syncwarp.cu: puzzle 8.12 with __syncwarp() where the
 * block needs __syncthreads(). It orders one warp only (at n = 33 thread
 * 32 would read s[31], stored by the other warp), and already at n = 8 its
 * full mask names 24 lanes the block of 8 does not have: synccheck stops it.
 * expect: FAIL: the kernel stopped with an error: simt synccheck.*__syncwarp
 * hint: __syncthreads\(\) is the barrier that every */
#include "pool.h"

__global__ void pool(const float *a, float *out, int n)
{
    extern __shared__ float s[];
    (void)n;
    int i = threadIdx.x;
    s[i] = a[i];
    __syncwarp();
    float sum = s[i];
    if (i >= 1) sum += s[i - 1];
    if (i >= 2) sum += s[i - 2];
    out[i] = sum;
}

void pool_launch(const float *d_a, float *d_out, int n) { pool<<<1, n, n * sizeof(float)>>>(d_a, d_out, n); }
