/* tests/wrong/8.2-serial-lane0.cu: exercise 8.2 the serial way: lane 0 of
 * each warp walks its 32 elements with a running sum and writes all 32
 * results. Every value is right and each element is loaded once, but no
 * lane reads another's register: no shuffle at all.
 * expect: FAIL: 0 shuffles for [0-9]+ warps */
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % warpSize != 0) return;
    int run = 0;
    for (int k = i; k < i + warpSize && k < n; k++) {
        run += in[k];
        out[k] = run;
    }
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    warp_scan<<<(n + block - 1) / block, block, 0>>>(d_in, d_out, n);
}
