// bad_race_shared.cu (must fail): a read of shared memory that another
// warp writes, with no barrier in between.
// The learner stages the input in shared memory to compute differences of
// neighbours, d[i] = x[i] - x[i-1], and forgets the __syncthreads() between
// the store and the loads. Thread 32 (warp 1) reads s[31], which thread 31
// (warp 0) writes: nothing orders the two, so on a GPU the result depends
// on which warp runs first (usually right, sometimes not). The emulator's
// racecheck reports the hazard with both threads and both lines.
// Fix: __syncthreads() after the store.
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

// d[i] = x[i] - x[i - 1], d[0] = x[0].
__global__ void adjacentDiff(const int *x, int *d, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    if (i < n)
        s[t] = x[i];
    // BUG: no __syncthreads() here
    if (i < n) {
        int left = t > 0 ? s[t - 1] : (i > 0 ? x[i - 1] : 0);
        d[i] = s[t] - left;
    }
}

int main()
{
    const int n = 1000;
    int h_x[n], h_d[n];
    for (int i = 0; i < n; i++)
        h_x[i] = i * i;
    int *x, *d;
    CHECK(cudaMalloc(&x, sizeof h_x));
    CHECK(cudaMalloc(&d, sizeof h_d));
    CHECK(cudaMemcpy(x, h_x, sizeof h_x, cudaMemcpyHostToDevice));
    adjacentDiff<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_d, d, sizeof h_d, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h_d[i] != (i > 0 ? 2 * i - 1 : 0);
    printf("adjacentDiff: %s n=%d, %d wrong\n", bad ? "FAIL" : "PASS", n, bad);
    CHECK(cudaFree(x));
    CHECK(cudaFree(d));
    return bad ? 1 : 0;
}
