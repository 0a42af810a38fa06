// bugs/bad_atomic_plain_shared.cu (must fail): an atomic and a plain access
// to the same shared word with no barrier between them. The even threads
// count with atomicAdd while the odd threads read the count: the atomics
// do not order the plain reads, which see any partial count.
// Fix: __syncthreads() between the counting and the reading.
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

__global__ void countAndPeek(int *out)
{
    __shared__ int count;
    int t = threadIdx.x;
    if (t == 0) count = 0;
    __syncthreads();
    if (t % 2 == 0)
        atomicAdd(&count, 1);  // the even threads count
    else
        out[t] = count;        // BUG: the odd threads read, unordered with the atomics
}

int main()
{
    int *out;
    CHECK(cudaMalloc(&out, 128 * sizeof(int)));
    CHECK(cudaMemset(out, 0, 128 * sizeof(int)));
    countAndPeek<<<1, 128>>>(out);
    CHECK(cudaGetLastError());
    int h[128];
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    printf("countAndPeek: thread 127 saw %d (anything from 0 to 64)\n", h[127]);
    CHECK(cudaFree(out));
    return 0;
}
