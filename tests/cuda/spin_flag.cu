// spin_flag.cu: one warp waits for another through a flag in memory.
// In a block of 64 threads, warp 1 computes a value, publishes it, fences,
// and raises a flag; warp 0 spins on the flag, then reads the value. Warps
// are scheduled independently on every GPU, and since Volta each thread
// even has its own progress guarantee, so this finishes on a GPU; an
// emulator that runs one warp to completion before starting the next spins
// forever here. Two variants: the flag read through a volatile pointer,
// and the flag raised with atomicExch and polled with atomicAdd(flag, 0).
// Both stay in global memory: a flag in shared memory would be the same
// handshake, but a race checker rightly calls unsynchronized shared-memory
// accesses between warps a hazard (see bad_warp_sync.cu).
// Conformance: forward progress between warps of a block, volatile loads
// that are re-read each iteration, atomics as loads, __threadfence ordering
// the data before the flag.
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

// Some work for the producer: sum of i * i for i < 1000 (332833500, fits in int).
__device__ int produce()
{
    int s = 0;
    for (int i = 0; i < 1000; i++)
        s += i * i;
    return s;
}

// out[t] = the produced value + t for the 32 threads of warp 0.
__global__ void spinGlobal(int *flag, int *data, int *out)
{
    int t = threadIdx.x;
    if (t == 32) {  // warp 1, lane 0
        *(volatile int *)data = produce();
        __threadfence();  // data before flag, as seen by any thread
        *(volatile int *)flag = 1;
    } else if (t < 32) {  // all of warp 0
        while (*(volatile int *)flag == 0) {
        }
        __threadfence();
        out[t] = *(volatile int *)data + t;
    }
}

// The same handshake with atomics: the flag is raised and polled atomically.
__global__ void spinAtomic(int *flag, int *data, int *out)
{
    int t = threadIdx.x;
    if (t == 63) {  // the last thread of warp 1
        *(volatile int *)data = produce() / 2;
        __threadfence();
        atomicExch(flag, 1);
    } else if (t < 32) {
        while (atomicAdd(flag, 0) == 0) {
        }
        __threadfence();
        out[t] = *(volatile int *)data - t;
    }
}

int main()
{
    int *flag, *data, *out, h[32];
    CHECK(cudaMalloc(&flag, sizeof(int)));
    CHECK(cudaMalloc(&data, sizeof(int)));
    CHECK(cudaMalloc(&out, 32 * sizeof(int)));
    CHECK(cudaMemset(flag, 0, sizeof(int)));
    CHECK(cudaMemset(data, 0, sizeof(int)));
    spinGlobal<<<1, 64>>>(flag, data, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    const int want = 332833500;
    bool ok1 = true;
    for (int t = 0; t < 32; t++)
        ok1 &= h[t] == want + t;
    printf("spin_flag global: %s out[0]=%d out[31]=%d\n", ok1 ? "PASS" : "FAIL", h[0], h[31]);

    CHECK(cudaMemset(flag, 0, sizeof(int)));
    spinAtomic<<<1, 64>>>(flag, data, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    bool ok2 = true;
    for (int t = 0; t < 32; t++)
        ok2 &= h[t] == want / 2 - t;
    printf("spin_flag atomic: %s out[0]=%d out[31]=%d\n", ok2 ? "PASS" : "FAIL", h[0], h[31]);
    CHECK(cudaFree(flag));
    CHECK(cudaFree(data));
    CHECK(cudaFree(out));
    return ok1 && ok2 ? 0 : 1;
}
