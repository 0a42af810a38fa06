/* tests/wrong/8.2-early-return.cu: exercise 8.2 with the usual bounds guard
 * `if (i >= n) return;` before the shuffles. Lanes past the end of the
 * array leave the warp, and the others' full-mask __shfl_up_sync waits for
 * lanes that have exited: on a GPU undefined (a hang or garbage), on the
 * emulator an error, with n = 1.
 * expect: FAIL: the kernel stopped with an error
 * hint: a lane with i >= n must still join the shuffles */
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
    if (i >= n) return;
    int v = in[i];
    for (int d = 1; d < warpSize; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    out[i] = v;
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    warp_scan<<<(n + block - 1) / block, block, 0>>>(d_in, d_out, n);
}
