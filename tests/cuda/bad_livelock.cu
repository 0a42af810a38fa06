// bad_livelock.cu (must fail): a thread waits for a flag that no thread
// will ever set.
// The learner's producer is "the last thread of the block", written
// threadIdx.x == blockDim.x, a thread that does not exist (the last one is
// blockDim.x - 1). Thread 0 spins on the flag forever: on a GPU the launch
// never returns (until a watchdog, if any, kills it). The emulator sees
// that no thread of the block can make progress and reports it after a
// budget instead of hanging.
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

// Thread 0 waits for the last thread's value and stores it in *out.
__global__ void handoff(volatile int *flag, volatile int *value, int *out)
{
    if (threadIdx.x == blockDim.x) {  // BUG: no such thread; the last is blockDim.x - 1
        *value = 1234;
        __threadfence();
        *flag = 1;
    }
    if (threadIdx.x == 0) {
        while (*flag == 0) {  // spins forever
        }
        *out = *value;
    }
}

int main()
{
    int *flag, *value, *out, got = 0;
    CHECK(cudaMalloc(&flag, sizeof(int)));
    CHECK(cudaMalloc(&value, sizeof(int)));
    CHECK(cudaMalloc(&out, sizeof(int)));
    CHECK(cudaMemset(flag, 0, sizeof(int)));
    CHECK(cudaMemset(value, 0, sizeof(int)));
    handoff<<<1, 64>>>(flag, value, out);
    CHECK(cudaGetLastError());
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("handoff: FAIL: %s\n", cudaGetErrorName(err));
        return 1;
    }
    CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    printf("handoff: %s value %d (want 1234)\n", got == 1234 ? "PASS" : "FAIL", got);
    CHECK(cudaFree(flag));
    CHECK(cudaFree(value));
    CHECK(cudaFree(out));
    return got == 1234 ? 0 : 1;
}
