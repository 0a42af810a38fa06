/* tests/wrong/8.2-block-lane.cu: exercise 8.2 testing threadIdx.x >= d
 * where the lane, threadIdx.x % 32, is meant. In the first warp of a block
 * the two agree, so blocks of 32 threads pass; in every later warp lane 0
 * (threadIdx.x = 32, 64, ...) adds the value the shuffle hands back to a lane
 * with no lane d below it: its own.
 * expect: FAIL: out\[32\] = .*lane 0's result is its own value */
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < warpSize; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if ((int)threadIdx.x >= d) v += up;
    }
    if (i < n) out[i] = v;
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    warp_scan<<<(n + block - 1) / block, block, 0>>>(d_in, d_out, n);
}
