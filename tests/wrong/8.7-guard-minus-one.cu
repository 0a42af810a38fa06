/* tests/wrong/8.7-guard-minus-one.cu: puzzle 8.7 with the guard one too
 * strict, i < n - 1 ("the last index is n - 1", misread): nothing goes past
 * the end, but the last element is never written.
 * expect: FAIL: out\[4\] = .*never written: the guard stops thread n - 1 too */
#include "guards.h"

__global__ void guards(const float *a, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n - 1) out[i] = a[i] + 10.0f;
}

void guards_launch(const float *d_a, float *d_out, int n) { guards<<<1, GUARDS_THREADS(n)>>>(d_a, d_out, n); }
