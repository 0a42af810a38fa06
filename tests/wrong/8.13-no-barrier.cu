/* tests/wrong/8.13-no-barrier.cu: puzzle 8.13 with the tree's barrier left
 * out: a thread may read s[i + half] before its owner has added into it in
 * the step before. racecheck names the hazard even when the sum comes out
 * right.
 * expect: FAIL: the emulator's checks found a problem.*racecheck */
#include "dot.h"

__global__ void dot(const float *a, const float *b, float *out, int n)
{
    extern __shared__ float s[];
    int i = threadIdx.x;
    s[i] = a[i] * b[i];
    __syncthreads();
    for (int width = n; width > 1;) {
        int half = (width + 1) / 2;
        if (i < width - half) s[i] += s[i + half];
        width = half;
    }
    if (i == 0) out[0] = s[0];
}

void dot_launch(const float *d_a, const float *d_b, float *d_out, int n) { dot<<<1, n, n * sizeof(float)>>>(d_a, d_b, d_out, n); }
