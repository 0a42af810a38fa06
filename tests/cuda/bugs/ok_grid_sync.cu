// bugs/ok_grid_sync.cu (must not report): blocks of a cooperative launch
// exchange values through global memory across grid.sync(). Each block
// writes its slot, the grid meets, each block reads its neighbour's slot
// and overwrites its own after a second grid.sync(): grid.sync() orders
// everything before it against everything after it.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,   \
                    #call, cudaGetErrorName(err_));                         \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

namespace cg = cooperative_groups;
#define BLOCKS 4
#define BLOCK 64

__global__ void rotate(int *slot, int *out)
{
    cg::grid_group grid = cg::this_grid();
    int b = blockIdx.x, t = threadIdx.x;
    slot[b * BLOCK + t] = 100 * b + t;
    grid.sync();
    int v = slot[((b + 1) % BLOCKS) * BLOCK + t];
    grid.sync();
    slot[b * BLOCK + t] = v;
    out[b * BLOCK + t] = v;
}

int main()
{
    int coop = 0;
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    if (!coop) { printf("no cooperative launch\n"); return 0; }
    int *slot, *out, h[BLOCKS * BLOCK];
    CHECK(cudaMalloc(&slot, sizeof h));
    CHECK(cudaMalloc(&out, sizeof h));
    void *args[] = { &slot, &out };
    CHECK(cudaLaunchCooperativeKernel(rotate, BLOCKS, BLOCK, args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < BLOCKS * BLOCK; i++) bad += h[i] != 100 * ((i / BLOCK + 1) % BLOCKS) + i % BLOCK;
    printf("rotate: %d wrong of %d\n", bad, BLOCKS * BLOCK);
    CHECK(cudaFree(slot));
    CHECK(cudaFree(out));
    return 0;
}
