/* tests/wrong/8.7-next-element.cu: puzzle 8.7 guarded right but off by one
 * in the read: thread i takes a[i + 1], so thread n - 1, which has an
 * element, reads a[n], past the end.
 * expect: FAIL: thread 4 has an element \(i < n\) but touches a\[5\], past the end */
#include "guards.h"

__global__ void guards(const float *a, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n) out[i] = a[i + 1] + 10.0f;
}

void guards_launch(const float *d_a, float *d_out, int n) { guards<<<1, GUARDS_THREADS(n)>>>(d_a, d_out, n); }
