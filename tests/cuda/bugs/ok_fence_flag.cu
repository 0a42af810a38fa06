// bugs/ok_fence_flag.cu (must not report): the "last block" reduction of
// NVIDIA's threadFenceReduction sample. Each block writes its partial sum
// to global memory, __threadfence() makes it visible to the whole device,
// then thread 0 takes a ticket with atomicInc. The block that draws the
// last ticket reads every partial sum: the fence before the ticket and the
// atomic ticket order the other blocks' writes before its reads.
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

#define BLOCK 128
#define BLOCKS 8

__device__ unsigned retired = 0;

__global__ void sumAll(const float *x, float *partial, float *total)
{
    __shared__ float s[BLOCK];
    __shared__ bool amLast;
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int h = BLOCK / 2; h > 0; h /= 2) {
        if (t < h) s[t] += s[t + h];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
    __threadfence();  // the partial sum before the ticket, for every block
    if (t == 0) {
        unsigned ticket = atomicInc(&retired, gridDim.x);
        amLast = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (amLast && t == 0) {
        float sum = 0;
        for (int b = 0; b < BLOCKS; b++) sum += partial[b];
        *total = sum;
        retired = 0;  // for the next launch
    }
}

int main()
{
    float h_x[BLOCK * BLOCKS];
    for (int i = 0; i < BLOCK * BLOCKS; i++) h_x[i] = (float)(i % 10);
    float *x, *partial, *total, h_total = 0;
    CHECK(cudaMalloc(&x, sizeof h_x));
    CHECK(cudaMalloc(&partial, BLOCKS * sizeof(float)));
    CHECK(cudaMalloc(&total, sizeof(float)));
    CHECK(cudaMemcpy(x, h_x, sizeof h_x, cudaMemcpyHostToDevice));
    for (int rep = 0; rep < 2; rep++) {
        sumAll<<<BLOCKS, BLOCK>>>(x, partial, total);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(&h_total, total, sizeof h_total, cudaMemcpyDeviceToHost));
        printf("launch %d: total %.0f\n", rep, h_total);
    }
    CHECK(cudaFree(x));
    CHECK(cudaFree(partial));
    CHECK(cudaFree(total));
    return 0;
}
