/* tests/wrong/8.4-serial-thread0.cu: exercise 8.4 "fixed" by dropping the
 * tree: thread 0 scans the block's magnitudes one after another, bounded by
 * n, and the early return is moved below the one barrier left. Every scale
 * and code is right; the block's threads no longer cooperate, which the
 * barrier count shows.
 * expect: FAIL: block = 32: 2.0 barriers per block */
#include "quantize.h"

__global__ void quantize(const float *x, signed char *q, float *scale, int n)
{
    extern __shared__ float s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    float v = i < (unsigned)n ? x[i] : 0.0f;
    s[t] = fabsf(v);
    __syncthreads();
    if (t == 0) {
        float m = 0.0f;
        for (unsigned k = 0; k < blockDim.x; k++) m = fmaxf(m, s[k]);
        s[0] = m;
    }
    __syncthreads();
    if (i >= (unsigned)n) return;
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
