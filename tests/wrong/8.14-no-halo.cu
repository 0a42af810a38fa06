/* tests/wrong/8.14-no-halo.cu: puzzle 8.14 with the tile but no halo: the
 * terms past the block's own B elements are taken as 0, as if the block
 * were the whole array. Right in the first block's first B - k + 1 outputs
 * only: out[6] at n = 12, k = 3, B = 8 needs a[8], in the next block's tile.
 * expect: FAIL: out\[6\] = .*the halo */
#include "conv1d.h"

__global__ void conv1d(const float *a, const float *b, float *out, int n, int k)
{
    extern __shared__ float s[];
    int B = blockDim.x, t = threadIdx.x, i = blockIdx.x * B + t;
    float *w = s + B + k - 1;
    s[t] = i < n ? a[i] : 0.0f;
    if (t < k) w[t] = b[t];
    __syncthreads();
    if (i >= n) return;
    float sum = 0.0f;
    for (int j = 0; j < k && t + j < B; j++) sum += s[t + j] * w[j];
    out[i] = sum;
}

void conv1d_launch(const float *d_a, const float *d_b, float *d_out, int n, int k, int block)
{
    conv1d<<<(n + block - 1) / block, block, (block + 2 * k - 1) * sizeof(float)>>>(d_a, d_b, d_out, n, k);
}
