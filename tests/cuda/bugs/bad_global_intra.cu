// bugs/bad_global_intra.cu (must fail): threads of one block exchange values
// through global memory without a barrier. Thread t stores x[t] and then
// reads x[t ^ 32], which a thread of the other warp stores: nothing orders
// the two warps, so the value read may be the old one. Racecheck on global
// memory reports it like the shared-memory case (both threads and lines).
// Fix: __syncthreads() between the store and the load.
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

#define B 64

__global__ void swapHalves(int *x, int *out)
{
    int t = threadIdx.x;
    x[t] = 10 * t;          // store
    // BUG: no __syncthreads() here
    out[t] = x[t ^ 32];     // load another warp's element
}

int main()
{
    int *x, *out, h[B];
    CHECK(cudaMalloc(&x, B * sizeof(int)));
    CHECK(cudaMalloc(&out, B * sizeof(int)));
    CHECK(cudaMemset(x, 0, B * sizeof(int)));
    swapHalves<<<1, B>>>(x, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < B; i++) bad += h[i] != 10 * (i ^ 32);
    printf("swapHalves: %d of %d stale\n", bad, B);
    CHECK(cudaFree(x));
    CHECK(cudaFree(out));
    return 0;
}
