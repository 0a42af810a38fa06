// bad_grid_deadlock.cu: a block returns before the grid.sync() the others
// wait at, in a cooperative launch.
// The learner launches a fixed grid of 8 blocks but has only 5 blocks of
// work, and lets the spare blocks return early, as one does in a plain
// kernel. A grid-wide barrier counts every block of the grid: the 5 busy
// blocks wait at grid.sync() for 3 that have ended and never come, which
// hangs a GPU. The fix: every block reaches the barrier (guard the work,
// not the barrier), as with __syncthreads() inside a block.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,   \
                    #call, cudaGetErrorName(err_));                         \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

// Block b doubles x[b*64 .. b*64+63], then block 0 adds up everything.
__global__ void doubleThenSum(int *x, int used, int *total)
{
    if (blockIdx.x >= used)
        return;   // BUG: these blocks never reach grid.sync() below
    x[blockIdx.x * blockDim.x + threadIdx.x] *= 2;
    cg::this_grid().sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        int t = 0;
        for (int i = 0; i < used * (int)blockDim.x; i++)
            t += x[i];
        *total = t;
    }
}

int main()
{
    const int GRID = 8, BLOCK = 64, USED = 5;
    int h[GRID * BLOCK], *x, *total, got = 0;
    for (int i = 0; i < GRID * BLOCK; i++)
        h[i] = 1;
    CHECK(cudaMalloc(&x, sizeof h));
    CHECK(cudaMalloc(&total, sizeof(int)));
    CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    int used = USED;
    void *args[] = { &x, &used, &total };
    CHECK(cudaLaunchCooperativeKernel(doubleThenSum, dim3(GRID), dim3(BLOCK), args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
    printf("total = %d (want %d)\n", got, 2 * USED * BLOCK);
    CHECK(cudaFree(x));
    CHECK(cudaFree(total));
    return got == 2 * USED * BLOCK ? 0 : 1;
}
