// bugs/bad_atomic_uninit.cu (must fail): atomics that read memory nothing
// wrote. An atomic read-modify-write reads first: atomicAdd on a fresh
// cudaMalloc buffer adds to garbage (here 0xFF bytes, -1), and atomicMax on
// a __shared__ word nobody set compares with garbage. Initcheck reports
// both, like a plain read.
// Fix: cudaMemset the buffer; set the shared word, then __syncthreads().
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

__global__ void countGarbage(int *count)
{
    atomicAdd(count, 1);   // BUG: *count was never written
}

__global__ void maxGarbage(int *out)
{
    __shared__ int best;
    atomicMax(&best, (int)threadIdx.x);   // BUG: best was never set
    __syncthreads();
    if (threadIdx.x == 0) *out = best;
}

int main()
{
    int *count, *out, h = 0;
    CHECK(cudaMalloc(&count, sizeof(int)));   // no cudaMemset: garbage
    CHECK(cudaMalloc(&out, sizeof(int)));
    countGarbage<<<1, 32>>>(count);
    CHECK(cudaGetLastError());
    maxGarbage<<<1, 32>>>(out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
    printf("maxGarbage: %d\n", h);
    CHECK(cudaFree(count));
    CHECK(cudaFree(out));
    return 0;
}
