/* tests/wrong/8.2-no-lane-guard.cu: exercise 8.2 adding what
 * __shfl_up_sync returns on every lane. A lane below d has no lane d below
 * it, and the shuffle gives it back its own value: lane 0 doubles at every
 * step (32 times its element after 5 steps), lane 1 is off from step 2 on.
 * expect: FAIL: out\[0\] = .*lane 0's result is its own value */
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < warpSize; d *= 2) v += __shfl_up_sync(0xffffffffu, v, d);
    if (i < n) out[i] = v;
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    warp_scan<<<(n + block - 1) / block, block, 0>>>(d_in, d_out, n);
}
