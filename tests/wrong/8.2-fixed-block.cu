/* tests/wrong/8.2-fixed-block.cu: exercise 8.2 with a right kernel and a
 * launch that ignores its `block` argument: always 256 threads a block.
 * Every value is right; the block sizes the checker asks for are never run.
 * expect: FAIL: the launch used blocks of 256 threads */
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < warpSize; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    if (i < n) out[i] = v;
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    (void)block;
    warp_scan<<<(n + 255) / 256, 256, 0>>>(d_in, d_out, n);
}
