// bugs/bad_global_waw.cu (must fail): two blocks write the same global word.
// Thread 0 of every block stores its block index into *winner: which block
// wins depends on the order the GPU happens to run them. Nothing orders
// blocks of one launch, so racecheck on global memory reports the
// write-after-write hazard with both blocks, threads and lines.
// Fix: atomicMax(winner, blockIdx.x), or one writer.
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

__global__ void lastBlock(int *winner)
{
    if (threadIdx.x == 0)
        *winner = blockIdx.x;  // BUG: every block writes here, unordered
}

int main()
{
    int *winner, h = -1;
    CHECK(cudaMalloc(&winner, sizeof(int)));
    CHECK(cudaMemset(winner, 0, sizeof(int)));
    lastBlock<<<4, 64>>>(winner);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&h, winner, sizeof h, cudaMemcpyDeviceToHost));
    printf("winner: block %d (any of 0-3)\n", h);
    CHECK(cudaFree(winner));
    return 0;
}
