/* tests/wrong/8.15-in-place.cu: puzzle 8.15 in one buffer with one barrier
 * per step: s[t] += s[t - d] reads the cell that thread t - d is adding
 * into in the same step. Whether t reads the old or the new value depends
 * on which thread runs first; racecheck names the two lines either way.
 * expect: FAIL: the emulator's checks found a problem.*racecheck */
#include "prefix_sum.h"

__global__ void prefix_sum(const float *a, float *out, int n)
{
    extern __shared__ float s[];
    int B = blockDim.x, t = threadIdx.x, i = blockIdx.x * B + t;
    s[t] = i < n ? a[i] : 0.0f;
    __syncthreads();
    for (int d = 1; d < B; d *= 2) {
        if (t >= d) s[t] += s[t - d];
        __syncthreads();
    }
    if (i < n) out[i] = s[t];
}

void prefix_sum_launch(const float *d_a, float *d_out, int n, int block)
{
    prefix_sum<<<(n + block - 1) / block, block, 2 * block * sizeof(float)>>>(d_a, d_out, n);
}
