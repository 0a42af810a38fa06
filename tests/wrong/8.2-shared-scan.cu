/* tests/wrong/8.2-shared-scan.cu: exercise 8.2 answered with the textbook's
 * block scan: each warp's 32 values in shared memory, Hillis-Steele steps
 * with __syncwarp() between them. The sums are right; the exercise is the
 * same scan with the values staying in registers (shuffles).
 * expect: FAIL: the scan used shared memory */
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    __shared__ int s[1024];
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
    int v = i < n ? in[i] : 0;
    s[threadIdx.x] = v;
    __syncwarp();
    for (int d = 1; d < warpSize; d *= 2) {
        int up = lane >= d ? s[threadIdx.x - d] : 0;
        __syncwarp();
        v += up;
        s[threadIdx.x] = v;
        __syncwarp();
    }
    if (i < n) out[i] = v;
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    warp_scan<<<(n + block - 1) / block, block, 0>>>(d_in, d_out, n);
}
