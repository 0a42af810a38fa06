// bugs/bad_global_raw.cu (must fail): one block reads what another writes.
// A "two-phase" kernel: block 0 fills a table, block 1 reads it, in the
// same launch, with nothing in between. On a GPU block 1 may run first (or
// at the same time) and read stale values. Racecheck on global memory
// reports the read-after-write hazard: both blocks, threads and lines.
// Fix: two kernels (a launch boundary orders everything), or grid.sync() in
// a cooperative launch.
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

__global__ void fillThenUse(int *table, int *out)
{
    int t = threadIdx.x;
    if (blockIdx.x == 0)
        table[t] = t * t;              // phase 1: block 0
    else
        out[t] = table[N - 1 - t];     // BUG: phase 2 in block 1, unordered with phase 1
}

int main()
{
    int *table, *out, h[N];
    CHECK(cudaMalloc(&table, N * sizeof(int)));
    CHECK(cudaMalloc(&out, N * sizeof(int)));
    CHECK(cudaMemset(table, 0, N * sizeof(int)));
    fillThenUse<<<2, N>>>(table, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += h[i] != (N - 1 - i) * (N - 1 - i);
    printf("fillThenUse: %d of %d stale (0 if block 0 ran first)\n", bad, N);
    CHECK(cudaFree(table));
    CHECK(cudaFree(out));
    return 0;
}
