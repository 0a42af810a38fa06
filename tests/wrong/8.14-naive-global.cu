/* tests/wrong/8.14-naive-global.cu: puzzle 8.14 without shared memory:
 * every thread reads its k elements of a and all k weights from global
 * memory. Every value is right; 2k global reads per thread (6 at k = 3).
 * expect: FAIL: thread 0 makes 6 global reads; the puzzle allows 3 per thread */
#include "conv1d.h"

__global__ void conv1d(const float *a, const float *b, float *out, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
    for (int j = 0; j < k && i + j < n; j++) sum += a[i + j] * b[j];
    out[i] = sum;
}

void conv1d_launch(const float *d_a, const float *d_b, float *d_out, int n, int k, int block)
{
    conv1d<<<(n + block - 1) / block, block, (block + 2 * k - 1) * sizeof(float)>>>(d_a, d_b, d_out, n, k);
}
