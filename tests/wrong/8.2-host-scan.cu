/* tests/wrong/8.2-host-scan.cu: exercise 8.2 with a kernel that loads each
 * element once and shuffles five times, while the launch function computes
 * the scan on the host and copies it over the kernel's output.
 * expect: FAIL: 8.2-host-scan.cu calls cudaMemcpy\(\) */
#include <stdlib.h>

#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < warpSize; d *= 2) v += 0 * __shfl_up_sync(0xffffffffu, v, d);
    if (i < n) out[i] = v;
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    warp_scan<<<(n + block - 1) / block, block, 0>>>(d_in, d_out, n);
    int *h = (int *)malloc((size_t)n * sizeof *h);
    cudaMemcpy(h, d_in, (size_t)n * sizeof *h, cudaMemcpyDeviceToHost);
    for (int i = 1; i < n; i++)
        if (i % 32) h[i] += h[i - 1];
    cudaMemcpy(d_out, h, (size_t)n * sizeof *h, cudaMemcpyHostToDevice);
    free(h);
}
