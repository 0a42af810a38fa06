/* tests/wrong/8.14-no-barrier.cu: puzzle 8.14 with the __syncthreads()
 * between the loads and the sums left out: thread t reads tile[t + 1],
 * stored by thread t + 1, with nothing ordering the two. racecheck reports
 * it whether or not the values come out right.
 * expect: FAIL: the emulator's checks found a problem.*(racecheck|initcheck) */
#include "conv1d.h"

__global__ void conv1d(const float *a, const float *b, float *out, int n, int k)
{
    extern __shared__ float s[];
    int B = blockDim.x, t = threadIdx.x, start = blockIdx.x * B, i = start + t;
    float *w = s + B + k - 1;
    s[t] = i < n ? a[i] : 0.0f;
    if (t < k - 1) s[B + t] = start + B + t < n ? a[start + B + t] : 0.0f;
    if (t < k) w[t] = b[t];
    if (i >= n) return;
    float sum = 0.0f;
    for (int j = 0; j < k; j++) sum += s[t + j] * w[j];
    out[i] = sum;
}

void conv1d_launch(const float *d_a, const float *d_b, float *d_out, int n, int k, int block)
{
    conv1d<<<(n + block - 1) / block, block, (block + 2 * k - 1) * sizeof(float)>>>(d_a, d_b, d_out, n, k);
}
