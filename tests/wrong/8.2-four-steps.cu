/* tests/wrong/8.2-four-steps.cu: exercise 8.2 with the loop stopping one
 * step short (d < 16): 4 shuffles, so each lane sums only the 16 elements
 * ending at it. Lanes 0-15 are right (all that n = 1 and 5 look at); the
 * checker counts the shuffles, 4 a warp where a scan of 32 needs 5.
 * expect: FAIL: 4 shuffles for [0-9]+ warps: a scan of 32 lanes needs 5 steps */
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < warpSize / 2; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    if (i < n) out[i] = v;
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    warp_scan<<<(n + block - 1) / block, block, 0>>>(d_in, d_out, n);
}
