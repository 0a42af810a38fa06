/* tests/wrong/8.13-power-of-two-tree.cu: puzzle 8.13 with the textbook tree
 * for a power of two: half = width / 2 rounded down, so at n = 3 the third
 * product is never added. Right at n = 1, 2 and 8; wrong at 3.
 * expect: FAIL: out\[0\] = .*the sum of the first 2 products only */
#include "dot.h"

__global__ void dot(const float *a, const float *b, float *out, int n)
{
    extern __shared__ float s[];
    int i = threadIdx.x;
    s[i] = a[i] * b[i];
    __syncthreads();
    for (int half = n / 2; half > 0; half /= 2) {
        if (i < half) s[i] += s[i + half];
        __syncthreads();
    }
    if (i == 0) out[0] = s[0];
}

void dot_launch(const float *d_a, const float *d_b, float *d_out, int n) { dot<<<1, n, n * sizeof(float)>>>(d_a, d_b, d_out, n); }
