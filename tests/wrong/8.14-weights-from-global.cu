/* tests/wrong/8.14-weights-from-global.cu: puzzle 8.14 with the tile and
 * halo in shared memory but the weights read from global memory in the
 * loop: every thread reads all k of them, 1 + k reads (or 2 + k).
 * expect: FAIL: thread 0 makes 5 global reads; the puzzle allows 3 per thread */
#include "conv1d.h"

__global__ void conv1d(const float *a, const float *b, float *out, int n, int k)
{
    extern __shared__ float s[];
    int B = blockDim.x, t = threadIdx.x, start = blockIdx.x * B, i = start + t;
    s[t] = i < n ? a[i] : 0.0f;
    if (t < k - 1) s[B + t] = start + B + t < n ? a[start + B + t] : 0.0f;
    __syncthreads();
    if (i >= n) return;
    float sum = 0.0f;
    for (int j = 0; j < k; j++) sum += s[t + j] * b[j];
    out[i] = sum;
}

void conv1d_launch(const float *d_a, const float *d_b, float *d_out, int n, int k, int block)
{
    conv1d<<<(n + block - 1) / block, block, (block + 2 * k - 1) * sizeof(float)>>>(d_a, d_b, d_out, n, k);
}
