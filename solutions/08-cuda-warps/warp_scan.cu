/* solutions/08-cuda-warps/warp_scan.cu: a solution of exercise 8.2.
 *
 * Added to the skeleton exercises/08-cuda-warps/warp_scan.cu: the kernel's
 * load, the five __shfl_up_sync steps and the store, and the launch.
 * Graded by: make solution-8.2
 *
 * Five shuffles and five adds per lane, no shared memory, no barrier: the
 * building block of block and device scans (each warp's total is its lane
 * 31's value).
 */
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;   /* added */
    int v = i < n ? in[i] : 0;                                                 /* added */
    for (int d = 1; d < warpSize; d *= 2) {                                          /* added */
        int up = __shfl_up_sync(0xffffffffu, v, d);                                  /* added */
        if (lane >= d) v += up;                                                      /* added */
    }
    if (i < n) out[i] = v;                                                    /* added */
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    warp_scan<<<(n + block - 1) / block, block, 0>>>(d_in, d_out, n);         /* added */
}
