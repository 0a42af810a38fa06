// bad_host_pointer.cu (must fail): a kernel is given a pointer from malloc.
// The learner allocated the array with malloc, filled it, and passed it
// straight to the kernel, skipping cudaMalloc and cudaMemcpy. A kernel can
// only dereference device (or managed, or mapped pinned) memory: on most
// GPUs this launch fails with an illegal address; on systems with
// heterogeneous memory management it may even work, which hides the bug
// until the program meets another machine. The emulator's memcheck says
// the address is host memory.
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

__global__ void scale(float *x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * s;  // BUG: x is a host pointer
}

int main()
{
    const int n = 512;
    float *x = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        x[i] = (float)i;
    scale<<<(n + 127) / 128, 128>>>(x, 2.0f, n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("scale: FAIL: %s\n", cudaGetErrorName(err));
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += x[i] != 2.0f * i;
    printf("scale: %s n=%d, %d wrong\n", bad ? "FAIL" : "PASS", n, bad);
    free(x);
    return bad ? 1 : 0;
}
