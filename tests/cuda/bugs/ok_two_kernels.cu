// bugs/ok_two_kernels.cu (must not report): bad_global_raw.cu with its fix.
// Block 0 of the first kernel fills the table; every block of the second
// kernel reads it. The kernel boundary orders everything of the first
// launch before everything of the second.
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

#define N 64

__global__ void fill(int *table)
{
    if (blockIdx.x == 0) table[threadIdx.x] = (int)(threadIdx.x * threadIdx.x);
}

__global__ void use(const int *table, int *out)
{
    out[blockIdx.x * N + threadIdx.x] = table[N - 1 - threadIdx.x] + (int)blockIdx.x;
}

int main()
{
    int *table, *out, h[2 * N];
    CHECK(cudaMalloc(&table, N * sizeof(int)));
    CHECK(cudaMalloc(&out, 2 * N * sizeof(int)));
    fill<<<2, N>>>(table);
    use<<<2, N>>>(table, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 2 * N; i++) bad += h[i] != (N - 1 - i % N) * (N - 1 - i % N) + i / N;
    printf("fill then use: %d wrong of %d\n", bad, 2 * N);
    CHECK(cudaFree(table));
    CHECK(cudaFree(out));
    return 0;
}
