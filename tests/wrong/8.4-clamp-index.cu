/* tests/wrong/8.4-clamp-index.cu: exercise 8.4 "fixed" by clamping the
 * index instead of returning: a thread past the end works on the last
 * element again. The maxima are right (a duplicate cannot raise one) and
 * every barrier is reached, but x[n-1] is read many times and written by
 * many threads: the checker counts the loads.
 * expect: FAIL: n = 1, block = 32: 32 loads from global memory for 1 elements */
#include "quantize.h"

__global__ void quantize(const float *x, signed char *q, float *scale, int n)
{
    extern __shared__ float s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= (unsigned)n) i = (unsigned)n - 1;
    float v = x[i];
    s[t] = fabsf(v);
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step /= 2) {
        if (t < step) s[t] = fmaxf(s[t], s[t + step]);
        __syncthreads();
    }
    float amax = s[0];
    float sc = amax / 127.0f;
    if (t == 0) scale[blockIdx.x] = sc;
    q[i] = sc > 0.0f ? (signed char)rintf(v / sc) : (signed char)0;
}

void quantize_launch(const float *d_x, signed char *d_q, float *d_scale, int n, int block)
{
    int blocks = (n + block - 1) / block;
    quantize<<<blocks, block, block * sizeof(float)>>>(d_x, d_q, d_scale, n);
}
