/* tests/wrong/8.2-warp-sized-blocks.cu: exercise 8.2 with the element index
 * written as blockIdx.x * 32 + threadIdx.x, as if every block were one warp.
 * Blocks of 32 are right; with blocks of 64 block 1 starts at element 32
 * where it should start at 64, the blocks overlap, and the elements past
 * (blocks - 1) x 32 + 64 are never written.
 * expect: FAIL: out\[[0-9]+\] = 2139062143, want .*: never written */
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    int i = blockIdx.x * warpSize + threadIdx.x, lane = threadIdx.x % warpSize;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < warpSize; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    if (i < n) out[i] = v;
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    warp_scan<<<(n + block - 1) / block, block, 0>>>(d_in, d_out, n);
}
