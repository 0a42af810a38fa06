/* tests/wrong/8.7-guard-off-by-one.cu: puzzle 8.7 with the guard i <= n:
 * thread n (i == n) passes it and reads a[n], one past the last element
 * a[n - 1], and writes out[n].
 * expect: FAIL: the guard lets thread 5 \(i == n\) through */
#include "guards.h"

__global__ void guards(const float *a, float *out, int n)
{
    int i = threadIdx.x;
    if (i <= n) out[i] = a[i] + 10.0f;
}

void guards_launch(const float *d_a, float *d_out, int n) { guards<<<1, GUARDS_THREADS(n)>>>(d_a, d_out, n); }
