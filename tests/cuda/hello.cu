// hello.cu: "Hello World" from the device, the first program of every course.
// Conformance: a kernel with no arguments, device printf (%d %u %s %.2f),
// cudaDeviceSynchronize to flush the device's printf buffer, and a
// __device__ counter read back with cudaMemcpyFromSymbol.
//
// The output is the same on every device: printf from different warps or
// blocks comes out in no defined order, so the per-thread greeting runs in
// one block of 4 threads (one warp: its lanes print in lane order), and the
// 2-block launch prints from one thread only. stdout is flushed before each
// launch so that the host's lines and the device's stay in program order
// even when stdout is a file.
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

__device__ int greeted;  // how many threads ran a kernel of this file

__global__ void hello()
{
    printf("Hello from block %d, thread %d\n", blockIdx.x, threadIdx.x);
    atomicAdd(&greeted, 1);
}

// Only the last thread of the last block speaks; all 8 threads count.
__global__ void helloOnce()
{
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1)
        printf("Hello from block %u of %u, thread %u of %u (%s, %.2f)\n", blockIdx.x, gridDim.x,
               threadIdx.x, blockDim.x, "last", 0.25f * (float)(gridDim.x * blockDim.x));
    atomicAdd(&greeted, 1);
}

int main()
{
    printf("Hello from the host\n");
    fflush(stdout);
    hello<<<1, 4>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    printf("and a grid of 2 blocks of 4 threads:\n");
    fflush(stdout);
    helloOnce<<<2, 4>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    int n = 0;
    CHECK(cudaMemcpyFromSymbol(&n, greeted, sizeof n));
    printf("hello: %s threads=%d (want 12)\n", n == 12 ? "PASS" : "FAIL", n);
    return n == 12 ? 0 : 1;
}
