// bugs/bad_atomic_plain_global.cu (must fail): a plain read of a global
// counter that other blocks are still incrementing with atomicAdd. The
// atomics are atomic among themselves only: block 1's plain read of *total
// is not ordered with block 0's increments (nor with its own block's).
// Fix: read the total after the kernel (or in a second one).
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

__global__ void countThenRead(int *total, int *seen)
{
    if (blockIdx.x == 1 && threadIdx.x == 0)
        *seen = *total;                         // BUG: a plain read while others count
    else
        atomicAdd(total, 1);                    // the other threads count
}

int main()
{
    int *total, *seen, h = 0;
    CHECK(cudaMalloc(&total, sizeof(int)));
    CHECK(cudaMalloc(&seen, sizeof(int)));
    CHECK(cudaMemset(total, 0, sizeof(int)));
    countThenRead<<<2, 32>>>(total, seen);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&h, seen, sizeof h, cudaMemcpyDeviceToHost));
    printf("countThenRead: block 1 saw %d of 63\n", h);
    CHECK(cudaFree(total));
    CHECK(cudaFree(seen));
    return 0;
}
