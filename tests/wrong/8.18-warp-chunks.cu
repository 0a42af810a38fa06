/* tests/wrong/8.18-warp-chunks.cu: puzzle 8.18 with a contiguous chunk per
 * warp (ceil(n / W) elements), its lanes walking the chunk 32 at a time.
 * Coalesced, and right on 32 x 8 (chunks of 64), but a chunk whose length is
 * not a multiple of 8 floats starts the next warp mid-sector: on 37 x 53
 * chunks of 491, and every full request of warps 1-3 touches 5 sectors.
 * expect: FAIL: 4\.[0-9]+ sectors per load request
 * hint: misaligned */
#include "coalesce.h"

__global__ void coalesce(const float *in, float *out, int rows, int cols)
{
    long long n = (long long)rows * cols, warps = (long long)gridDim.x * blockDim.x / 32;
    long long chunk = (n + warps - 1) / warps, warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    for (long long i = warp * chunk + threadIdx.x % 32; i < (warp + 1) * chunk && i < n; i += 32) out[i] = in[i];
}

void coalesce_launch(const float *d_in, float *d_out, int rows, int cols)
{
    coalesce<<<(rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK, COALESCE_BLOCK>>>(d_in, d_out, rows, cols);
}
