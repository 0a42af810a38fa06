// bad_divergent_barrier.cu (must fail): __syncthreads() inside a branch
// that only some threads of the block take.
// The learner wanted the first 16 threads to fold the upper half of a
// 32-element array onto the lower half, step by step, and put the barrier
// inside the `if`. __syncthreads() must be reached by every thread of the
// block, or by none: here threads 16..63 never arrive. On a GPU the result
// is undefined (a hang, a wrong sum or, by luck, the right one); the
// emulator's synccheck names the kernel and the barrier's line.
// Fix: move the barrier out of the branch (see template_reduce.cu).
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

__global__ void partialSum(const float *data, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    if (t < 16) {
        for (int stride = 16; stride > 0; stride /= 2) {
            if (t < stride)
                s[t] += s[t + stride];
            __syncthreads();  // BUG: threads 16..63 never get here
        }
    }
    if (t == 0)
        *out = s[0];
}

int main()
{
    float h[64], sum = 0, *d_data, *d_out;
    for (int i = 0; i < 64; i++)
        h[i] = (float)i;
    for (int i = 0; i < 32; i++)
        sum += h[i];
    CHECK(cudaMalloc(&d_data, sizeof h));
    CHECK(cudaMalloc(&d_out, sizeof(float)));
    CHECK(cudaMemcpy(d_data, h, sizeof h, cudaMemcpyHostToDevice));
    partialSum<<<1, 64>>>(d_data, d_out);
    CHECK(cudaGetLastError());
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("partialSum: FAIL: %s\n", cudaGetErrorName(err));
        return 1;
    }
    float got = 0;
    CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    printf("partialSum: %s sum of the first 32 = %g (want %g)\n", got == sum ? "PASS" : "FAIL", got, sum);
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_out));
    return got == sum ? 0 : 1;
}
