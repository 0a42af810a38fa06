// bugs/ok_barrier_global.cu (must not report): bad_global_intra.cu with its
// fix. Threads of a block exchange values through global memory, and a
// __syncthreads() orders every store before every load; a __syncwarp()
// orders a lane's store before another lane's load within a warp.
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

__global__ void swapHalves(int *x, int *y, int *out)
{
    int t = threadIdx.x;
    x[t] = 10 * t;
    __syncthreads();
    int v = x[t ^ 32];       // another warp's element, after the barrier
    y[t] = v;
    __syncwarp();
    out[t] = y[t ^ 1];       // a neighbour lane's, after the warp's barrier
}

int main()
{
    int *x, *y, *out, h[B];
    CHECK(cudaMalloc(&x, B * sizeof(int)));
    CHECK(cudaMalloc(&y, B * sizeof(int)));
    CHECK(cudaMalloc(&out, B * sizeof(int)));
    swapHalves<<<1, B>>>(x, y, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < B; i++) bad += h[i] != 10 * ((i ^ 1) ^ 32);
    printf("swapHalves: %d wrong of %d\n", bad, B);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(out));
    return 0;
}
