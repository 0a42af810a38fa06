// vec_add.cu: the textbook first kernel, c = a + b, one thread per element.
// Conformance: a kernel with the parameters of the books (a, b, c, n), the
// <<<grid, block>>> launch, cudaMalloc/cudaMemcpy/cudaFree, grids that
// overhang n (n not a multiple of the block). Every size and block size is
// checked element by element against the CPU; the values are small
// integers plus halves, so every sum is exact on any device.
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

__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)  // the last block overhangs n
        c[i] = a[i] + b[i];
}

// One run: n elements, `block` threads per block; true if every c[i] is right.
static bool run(int n, int block)
{
    size_t bytes = n * sizeof(float);
    float *h_a = (float *)malloc(bytes), *h_b = (float *)malloc(bytes), *h_c = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) {
        h_a[i] = (float)i;              // exact up to 2^24
        h_b[i] = 0.5f * (float)(i % 7); // 0, 0.5, ..., 3
    }
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMalloc(&c, bytes));
    CHECK(cudaMemcpy(a, h_a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, h_b, bytes, cudaMemcpyHostToDevice));

    int grid = (n + block - 1) / block;
    vecAdd<<<grid, block>>>(a, b, c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_c, c, bytes, cudaMemcpyDeviceToHost));  // waits for the kernel

    int bad = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        float want = h_a[i] + h_b[i];
        if (h_c[i] != want && bad++ < 5)
            printf("  c[%d] = %g, want %g\n", i, h_c[i], want);
        sum += h_c[i];
    }
    if (bad)
        printf("vecAdd: FAIL n=%d block=%d grid=%d: %d wrong\n", n, block, grid, bad);
    else
        printf("vecAdd: PASS n=%d block=%d grid=%d sum=%.1f\n", n, block, grid, sum);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    free(h_a);
    free(h_b);
    free(h_c);
    return bad == 0;
}

int main()
{
    bool ok = true;
    ok &= run(1, 32);
    ok &= run(1000, 256);
    ok &= run(99999, 128);
    ok &= run(100000, 1024);
    return ok ? 0 : 1;
}
