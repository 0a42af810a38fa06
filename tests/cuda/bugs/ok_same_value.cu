// bugs/ok_same_value.cu (must not report): every thread that finds work
// raises a flag, in shared memory (for its block) and in global memory (for
// the host): many unordered writes, all of the same value. compute-sanitizer
// does not report a write that leaves memory as it was, and neither does
// the emulator (bad_shared_waw.cu writes different values, and is reported).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void anyNegative(const int *x, int n, int *blockHas, int *gridHas)
{
    __shared__ int found;
    if (threadIdx.x == 0) found = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] < 0) {
        found = 1;     // same value from every thread that finds one
        *gridHas = 1;  // same value from every block
    }
    __syncthreads();
    if (threadIdx.x == 0) blockHas[blockIdx.x] = found;
}

int main()
{
    const int n = 1024, blocks = 4;
    int h[n], *x, *blockHas, *gridHas, hb[blocks], hg = 0;
    for (int i = 0; i < n; i++) h[i] = (i % 3 == 0 && i < 600) ? -i : i;
    cudaMalloc(&x, sizeof h);
    cudaMalloc(&blockHas, sizeof hb);
    cudaMalloc(&gridHas, sizeof(int));
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(gridHas, 0, sizeof(int));
    anyNegative<<<blocks, n / blocks>>>(x, n, blockHas, gridHas);
    cudaMemcpy(hb, blockHas, sizeof hb, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hg, gridHas, sizeof hg, cudaMemcpyDeviceToHost);
    printf("blocks with a negative: %d %d %d %d; any: %d\n", hb[0], hb[1], hb[2], hb[3], hg);
    cudaFree(x);
    cudaFree(blockHas);
    cudaFree(gridHas);
    return 0;
}
