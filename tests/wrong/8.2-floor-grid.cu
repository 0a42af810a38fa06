/* tests/wrong/8.2-floor-grid.cu: exercise 8.2 with a right kernel and a
 * launch of n / block blocks, rounded down: the last, partial block is never
 * launched (with n = 1 no block at all), so its outputs are never written.
 * expect: FAIL: the kernel stopped with an error: .*a grid or block size is 0 */
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
    warp_scan<<<n / block, block, 0>>>(d_in, d_out, n);
}
