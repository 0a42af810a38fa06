/* exercises/08-cuda-warps/quantize.cu: exercise 8.4, a bug hunt.
 *
 * Block-wise int8 quantisation (quantize.h says exactly what): each block
 * of B elements finds its largest magnitude, turns it into one scale, and
 * stores every element as a signed byte. Four times less memory than float,
 * and an error of at most half a step per element: how LLM weights are
 * shipped to GPUs.
 *
 * This program works on the tests its author ran, but users report that it
 * fails on some of their arrays (on the emulator it stops with an error; on
 * a real GPU it gives garbage or hangs). It has ONE bug. Find it and fix it
 * here, changing as little as you can.
 *
 * Check your fix:  make ex-8.4     A hint, one level at a time:  make hint-8.4
 */
#include "quantize.h"

__global__ void quantize(const float *x, signed char *q, float *scale, int n)
{
    extern __shared__ float s[];          /* B floats: the block's magnitudes */
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= (unsigned)n) return;         /* nothing to quantise past the end */

    float v = x[i];                       /* the one read of x[i] */
    s[t] = fabsf(v);
    __syncthreads();
    /* The block's largest magnitude: a tree of log2(B) halving steps. */
    for (unsigned step = blockDim.x / 2; step > 0; step /= 2) {
        if (t < step) s[t] = fmaxf(s[t], s[t + step]);
        __syncthreads();
    }
    float amax = s[0];
    /* 127 steps on either side of 0: the largest magnitude maps to +-127. */
    float sc = amax / 127.0f;
    if (t == 0) scale[blockIdx.x] = sc;
    q[i] = sc > 0.0f ? (signed char)rintf(v / sc) : (signed char)0;
}

void quantize_launch(const float *d_x, signed char *d_q, float *d_scale, int n, int block)
{
    int blocks = (n + block - 1) / block;
    quantize<<<blocks, block, block * sizeof(float)>>>(d_x, d_q, d_scale, n);
}
