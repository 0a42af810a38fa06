// bad_grid_sync.cu: grid.sync() in a kernel launched with <<<>>>.
// The learner wants one kernel to finish a reduction across blocks: each
// block writes its partial sum, grid.sync() waits for all of them, block 0
// adds them up. But a plain launch does not promise that the blocks are
// alive at once (a block may start only when another has ended), so a
// grid-wide barrier there could wait forever: CUDA requires
// cudaLaunchCooperativeKernel for it, and in any other launch grid.sync()
// traps (this_grid().is_valid() is false). The fix: launch it with
// cudaLaunchCooperativeKernel, at most as many blocks as fit at once
// (coop_grid_sync.cu), or split it into two launches.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void sumAcrossBlocks(const float *in, float *partial, float *out, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
    cg::this_grid().sync();   // BUG: not a cooperative launch
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float t = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            t += partial[b];
        *out = t;
    }
}

int main()
{
    const int N = 1024, BLOCK = 256, GRID = N / BLOCK;
    float *h = (float *)malloc(N * sizeof(float)), *in, *partial, *out, got = 0;
    for (int i = 0; i < N; i++)
        h[i] = 1.0f;
    cudaMalloc(&in, N * sizeof(float));
    cudaMalloc(&partial, GRID * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    cudaMemcpy(in, h, N * sizeof(float), cudaMemcpyHostToDevice);
    sumAcrossBlocks<<<GRID, BLOCK>>>(in, partial, out, N);
    cudaError_t err = cudaDeviceSynchronize();
    cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost);
    printf("sum = %.0f (want %d): %s\n", got, N, err == cudaSuccess && got == N ? "PASS" : "FAIL");
    cudaFree(in);
    cudaFree(partial);
    cudaFree(out);
    free(h);
    return err == cudaSuccess && got == N ? 0 : 1;
}
