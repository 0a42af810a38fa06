/* solutions/08-cuda-warps/quantize.cu: the fix of exercise 8.4 (bug hunt).
 *
 * The bug: `if (i >= n) return;` at the top of the kernel. In the last
 * block, when n is not a multiple of B, the threads past the end left the
 * kernel, and the others then waited at __syncthreads() for threads that
 * would never come. A barrier counts every thread of the block: on a GPU
 * that is undefined (often a hang, or garbage), on the emulator an error.
 * With n a multiple of B no thread returns, which is why the author's tests
 * (1024 and 4096 elements) passed. The early return also left s[t] unwritten
 * for those threads, so the tree would have read garbage from shared memory.
 *
 * The fix: every thread takes part in the load and in every step of the
 * tree; a thread past the end contributes 0 (it cannot raise a maximum of
 * magnitudes), and only the store of its code is guarded.
 * Graded by: make solution-8.4
 */
#include "quantize.h"

__global__ void quantize(const float *x, signed char *q, float *scale, int n)
{
    extern __shared__ float s[];          /* B floats: the block's magnitudes */
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    bool inside = i < (unsigned)n;        /* fixed: no return before the barriers */

    float v = inside ? x[i] : 0.0f;       /* the one read of x[i]; 0 past the end */
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
    if (inside) q[i] = sc > 0.0f ? (signed char)rintf(v / sc) : (signed char)0;   /* fixed: guard the store only */
}

void quantize_launch(const float *d_x, signed char *d_q, float *d_scale, int n, int block)
{
    int blocks = (n + block - 1) / block;
    quantize<<<blocks, block, block * sizeof(float)>>>(d_x, d_q, d_scale, n);
}
