/* tests/wrong/8.7-guard-blockdim.cu: puzzle 8.7 with a guard against the
 * wrong bound: threadIdx.x < blockDim.x is true in every thread, so it
 * guards nothing, and the 27 spare threads run off the end as with no guard.
 * expect: FAIL: no guard: threads 5 to 31 have no element */
#include "guards.h"

__global__ void guards(const float *a, float *out, int n)
{
    (void)n;
    int i = threadIdx.x;
    if (threadIdx.x < blockDim.x) out[i] = a[i] + 10.0f;
}

void guards_launch(const float *d_a, float *d_out, int n) { guards<<<1, GUARDS_THREADS(n)>>>(d_a, d_out, n); }
