/* tests/wrong/8.3-serial-thread0.cu: exercise 8.3 with thread 0 of each
 * block filling the whole tile and halo alone, one cell after another, while
 * the other threads wait at the barrier. Every sum is right and each cell is
 * loaded once (1.27 loads per output for 16x16 blocks), but the loads are
 * not spread over the block: (bx+2)(by+2) dependent loads in one thread, a
 * memory latency each on a GPU (324 for 16x16, where 256 threads need 2
 * rounds).
 * expect: FAIL: each of the [0-9]+ global loads was a warp request of its own, one lane each */
#include "stencil.h"

__global__ void stencil(const float *in, float *out, int rows, int cols)
{
    extern __shared__ float tile[];
    int W = blockDim.x + 2, H = blockDim.y + 2;
    int r0 = blockIdx.y * blockDim.y - 1, c0 = blockIdx.x * blockDim.x - 1;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        for (int k = 0; k < W * H; k++) {
            int r = r0 + k / W, c = c0 + k % W;
            tile[k] = r >= 0 && r < rows && c >= 0 && c < cols ? in[r * cols + c] : 0.0f;
        }
    __syncthreads();
    int r = r0 + 1 + threadIdx.y, c = c0 + 1 + threadIdx.x;
    int k = (threadIdx.y + 1) * W + threadIdx.x + 1;
    if (r < rows && c < cols)
        out[r * cols + c] = tile[k] + tile[k - W] + tile[k + W] + tile[k - 1] + tile[k + 1];
}

void stencil_launch(const float *d_in, float *d_out, int rows, int cols, int bx, int by)
{
    dim3 grid = dim3((unsigned)((cols + bx - 1) / bx), (unsigned)((rows + by - 1) / by));
    dim3 block = dim3((unsigned)bx, (unsigned)by);
    stencil<<<grid, block, (bx + 2) * (by + 2) * sizeof(float)>>>(d_in, d_out, rows, cols);
}
