// bugs/bad_shared_waw.cu (must fail): ok_same_value.cu's flag, but each
// thread stores its own index ("who found it"): the unordered writes now
// differ, and which one wins depends on the schedule. Racecheck reports the
// write-after-write hazard on shared memory.
// Fix: atomicMin(&who, threadIdx.x), or a reduction.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void whoFound(const int *x, int n, int *who)
{
    __shared__ int finder;
    if (threadIdx.x == 0) finder = -1;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] < 0)
        finder = threadIdx.x;  // BUG: different values, unordered
    __syncthreads();
    if (threadIdx.x == 0) who[blockIdx.x] = finder;
}

int main()
{
    const int n = 256;
    int h[n], *x, *who, hw = 0;
    for (int i = 0; i < n; i++) h[i] = i % 5 == 0 ? -1 : 1;
    cudaMalloc(&x, sizeof h);
    cudaMalloc(&who, sizeof(int));
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    whoFound<<<1, n>>>(x, n, who);
    cudaMemcpy(&hw, who, sizeof hw, cudaMemcpyDeviceToHost);
    printf("found by thread %d (a multiple of 5)\n", hw);
    cudaFree(x);
    cudaFree(who);
    return 0;
}
