/* tests/wrong/8.5-block-index.cu: puzzle 8.5 indexed by the block instead of
 * the thread: with one block, blockIdx.x is 0 in every thread, so all n
 * threads write out[0] and nothing else is written.
 * expect: FAIL: out\[1\] = .*never written */
#include "map.h"

__global__ void map(const float *a, float *out, int n)
{
    (void)n;
    int i = blockIdx.x;
    out[i] = a[i] + 10.0f;
}

void map_launch(const float *d_a, float *d_out, int n) { map<<<1, n>>>(d_a, d_out, n); }
