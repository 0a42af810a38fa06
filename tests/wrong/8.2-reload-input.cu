/* tests/wrong/8.2-reload-input.cu: exercise 8.2 scanning exclusively (lane 0
 * starts from 0) and adding the element back at the end with a second load
 * of in[i]. The result is the inclusive scan, but every element is read
 * twice from global memory where a register already held it.
 * expect: FAIL: [0-9]+ global loads for [0-9]+ elements */
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
    int x = i < n ? in[i] : 0;
    int v = __shfl_up_sync(0xffffffffu, x, 1);
    if (lane == 0) v = 0;
    for (int d = 1; d < warpSize / 2 + 1; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    if (i < n) out[i] = v + in[i];
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    warp_scan<<<(n + block - 1) / block, block, 0>>>(d_in, d_out, n);
}
