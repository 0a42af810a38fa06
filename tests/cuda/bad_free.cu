// bad_free.cu (must fail): cudaFree of a pointer that cudaMalloc did not
// return, and a device buffer never freed.
// The learner's clean-up mixes the two kinds of memory: cudaFree(h_x) on
// the host buffer (which needed free), and no cudaFree for d_y at all.
// Neither changes what the program prints, and the status of cudaFree is
// not checked, so on a GPU the program "works". The emulator's memcheck
// reports the bad cudaFree at its line, and the allocation still live at
// exit. (compute-sanitizer --leak-check full reports both on a GPU.)
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

__global__ void addOne(const int *x, int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] + 1;
}

int main()
{
    const int n = 1000;
    size_t bytes = n * sizeof(int);
    int *h_x = (int *)malloc(bytes), *h_y = (int *)malloc(bytes);
    for (int i = 0; i < n; i++)
        h_x[i] = i;
    int *d_x, *d_y;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMalloc(&d_y, bytes));  // BUG: never freed
    CHECK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
    addOne<<<(n + 255) / 256, 256>>>(d_x, d_y, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h_y[i] != i + 1;
    printf("addOne: %s n=%d, %d wrong\n", bad ? "FAIL" : "PASS", n, bad);

    cudaFree(d_x);
    cudaFree(h_x);  // BUG: h_x came from malloc
    free(h_y);
    return bad ? 1 : 0;
}
