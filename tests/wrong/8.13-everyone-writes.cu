/* tests/wrong/8.13-everyone-writes.cu: puzzle 8.13 with a right tree, then
 * every thread writes the sum: n stores of the same value into out[0]. The
 * value is right; the emulator sees n unordered writes of one address (a
 * race on global memory, which compute-sanitizer would not see).
 * expect: FAIL: .*(global writes in all|hazard on global memory) */
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
        __syncthreads();
        width = half;
    }
    out[0] = s[0];
}

void dot_launch(const float *d_a, const float *d_b, float *d_out, int n) { dot<<<1, n, n * sizeof(float)>>>(d_a, d_b, d_out, n); }
