/* tests/wrong/8.4-no-barrier.cu: exercise 8.4 "fixed" by deleting every
 * __syncthreads(): the early return then no longer strands anyone at a
 * barrier, and on the emulator's in-order run the maxima even come out
 * right, but the tree reads shared memory other threads write with nothing
 * in between. racecheck sees it on every run; the checker must say what
 * kind of bug it is and name no line.
 * expect: FAIL: n = 1024, block = 32: two threads of a block used the same shared memory */
#include "quantize.h"

__global__ void quantize(const float *x, signed char *q, float *scale, int n)
{
    extern __shared__ float s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= (unsigned)n) return;
    float v = x[i];
    s[t] = fabsf(v);
    for (unsigned step = blockDim.x / 2; step > 0; step /= 2)
        if (t < step) s[t] = fmaxf(s[t], s[t + step]);
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
