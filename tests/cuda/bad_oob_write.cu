// bad_oob_write.cu (must fail): a kernel writes far past the end of its
// cudaMalloc allocation.
// The learner passed the size in bytes where the kernel wants a count of
// elements: the guard `i < n` lets 4 * 1000 threads through for 1000
// floats, and the last one writes c[3999], 2999 elements past the end. On
// a GPU a small overrun like this often lands in memory the process owns
// and nothing is reported; the emulator's memcheck names the kernel, the
// thread, the line and the allocation.
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

// c[i] = i / 2 for the n elements of c.
__global__ void ramp(float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = 0.5f * i;  // BUG: n is a byte count, 4x the elements of c
}

int main()
{
    const int n = 1000;
    size_t bytes = n * sizeof(float);
    float *c, h[n];
    CHECK(cudaMalloc(&c, bytes));
    int block = 256, grid = (int)((bytes + block - 1) / block);
    ramp<<<grid, block>>>(c, (int)bytes);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("ramp: FAIL: %s\n", cudaGetErrorName(err));
        return 1;
    }
    CHECK(cudaMemcpy(h, c, bytes, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != 0.5f * i;
    printf("ramp: %s n=%d, %d wrong\n", bad ? "FAIL" : "PASS", n, bad);
    CHECK(cudaFree(c));
    return bad ? 1 : 0;
}
