/* tests/wrong/8.14-unguarded-halo.cu: puzzle 8.14 that guards the tile but
 * not the halo: the last block's halo threads load a[n], a[n + 1], ...,
 * past the end of a (on a GPU: another allocation's data, or a fault).
 * expect: FAIL: the kernel stopped with an error */
#include "conv1d.h"

__global__ void conv1d(const float *a, const float *b, float *out, int n, int k)
{
    extern __shared__ float s[];
    int B = blockDim.x, t = threadIdx.x, start = blockIdx.x * B, i = start + t;
    float *w = s + B + k - 1;
    s[t] = i < n ? a[i] : 0.0f;
    if (t < k - 1) s[B + t] = a[start + B + t];
    if (t < k) w[t] = b[t];
    __syncthreads();
    if (i >= n) return;
    float sum = 0.0f;
    for (int j = 0; j < k; j++) sum += s[t + j] * w[j];
    out[i] = sum;
}

void conv1d_launch(const float *d_a, const float *d_b, float *d_out, int n, int k, int block)
{
    conv1d<<<(n + block - 1) / block, block, (block + 2 * k - 1) * sizeof(float)>>>(d_a, d_b, d_out, n, k);
}
