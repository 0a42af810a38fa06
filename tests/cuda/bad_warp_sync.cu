// bad_warp_sync.cu (must fail): the last 32 steps of a tree reduction done
// "warp-synchronously", without __syncwarp().
// This is the legacy idiom of the old reduction tutorials: once 32 threads
// are left they are one warp, the warp runs in lockstep, so volatile
// shared memory is thought to be enough. Since Volta the threads of a warp
// are scheduled independently and nothing orders a lane's write to s[t]
// before another lane's read of it: each step is a data race. It usually
// still gives the right sum, which is why it lived on. The emulator's
// racecheck reports a hazard between lanes of warp 0 in warpReduce.
// Fix: __syncwarp() between the steps, or shuffles (warp_scan.cu,
// cg_reduce.cu).
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

#define BLOCK 256

// BUG: the six steps race with each other (no __syncwarp between them).
__device__ void warpReduce(volatile float *s, int t)
{
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
}

// out[blockIdx.x] = the sum of the block's BLOCK elements of in.
__global__ void reduceLegacy(const float *in, float *out, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 32; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32)
        warpReduce(s, t);
    if (t == 0)
        out[blockIdx.x] = s[0];
}

int main()
{
    const int n = 4096, grid = n / BLOCK;
    float h_in[n], h_out[grid];
    for (int i = 0; i < n; i++)
        h_in[i] = (float)(i % 10);
    float *in, *out;
    CHECK(cudaMalloc(&in, sizeof h_in));
    CHECK(cudaMalloc(&out, sizeof h_out));
    CHECK(cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    reduceLegacy<<<grid, BLOCK>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
    double got = 0, want = 0;
    for (int b = 0; b < grid; b++)
        got += h_out[b];
    for (int i = 0; i < n; i++)
        want += h_in[i];
    printf("reduceLegacy: %s n=%d sum=%.0f (want %.0f)\n", got == want ? "PASS" : "FAIL", n, got, want);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return got == want ? 0 : 1;
}
