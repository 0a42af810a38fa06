/* solutions/08-cuda-warps/conv1d.cu: a solution of puzzle 8.14, conv1d.
 *
 * The block's shared memory holds, in this order, the tile a[start ..
 * start + B - 1], its halo a[start + B .. start + B + k - 2] and the k
 * weights: B + 2k - 1 floats. Thread t loads tile[t] (0 past the end:
 * the partial last block), threads t < k - 1 one halo element each (0 past
 * the end: the halo of the blocks near the end) and threads t < k one
 * weight each: at most 3 global reads per thread, since k <= B. After one
 * barrier every sum reads shared memory only: k products from tile[t ..
 * t + k - 1] and the weights. The naive kernel reads 2k per thread (64 at
 * k = 32); this one, in blocks of 32 with k = 32, reads (32 + 31 + 32) / 32
 * = 2.97 per output, and a GPU's shared memory serves the 2k reads of each
 * sum. A thread past n still loads (0) and meets the barrier: it returns
 * only after it.
 */
#include "exercise.h"
#include "conv1d.h"

__global__ void conv1d(const float *a, const float *b, float *out, int n, int k)
{
    extern __shared__ float s[];                /* B + 2k - 1 floats: the launch's third argument */
    int B = blockDim.x, t = threadIdx.x;
    float *tile = s;                            /* B + k - 1: the tile, then the halo */
    float *w = s + B + k - 1;                   /* k: the weights */
    int start = blockIdx.x * B, i = start + t;
    tile[t] = i < n ? a[i] : 0.0f;              /* the partial last block loads 0s */
    if (t < k - 1) {
        int h = start + B + t;                  /* the halo: the next tile's first k - 1 */
        tile[B + t] = h < n ? a[h] : 0.0f;      /* past the end of a: the terms are 0 */
    }
    if (t < k) w[t] = b[t];
    __syncthreads();                            /* all of s stored before any sum reads it */
    if (i >= n) return;
    float sum = 0.0f;
    for (int j = 0; j < k; j++) sum += tile[t + j] * w[j];
    out[i] = sum;
}

void conv1d_launch(const float *d_a, const float *d_b, float *d_out, int n, int k, int block)
{
    int blocks = (n + block - 1) / block;
    conv1d<<<blocks, block, (block + 2 * k - 1) * sizeof(float)>>>(d_a, d_b, d_out, n, k);
}
