/* tests/wrong/8.12-centred.cu: puzzle 8.12 with the window centred on i
 * (a[i - 1] + a[i] + a[i + 1], the usual smoothing window) where the
 * puzzle's ends at i. Budget and barrier are fine; the values are not.
 * expect: FAIL: out\[0\] = .*a window centred on i */
#include "pool.h"

__global__ void pool(const float *a, float *out, int n)
{
    extern __shared__ float s[];
    int i = threadIdx.x;
    s[i] = a[i];
    __syncthreads();
    float sum = s[i];
    if (i >= 1) sum += s[i - 1];
    if (i + 1 < n) sum += s[i + 1];
    out[i] = sum;
}

void pool_launch(const float *d_a, float *d_out, int n) { pool<<<1, n, n * sizeof(float)>>>(d_a, d_out, n); }
