// bugs/ok_atomics_only.cu (must not report): many blocks update the same
// global words with atomics only: a histogram (atomicAdd), the largest and
// smallest value (atomicMax, atomicMin), a first-come ticket (atomicCAS),
// and bitwise flags (atomicOr). Atomic against atomic is never a race.

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

#define N 4096
#define BINS 16

__global__ void stats(const int *x, int n, unsigned *hist, int *mx, int *mn, int *first, unsigned *seen)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = x[i];
        atomicAdd(&hist[v % BINS], 1u);
        atomicMax(mx, v);
        atomicMin(mn, v);
        atomicCAS(first, -1, (int)blockIdx.x);
        atomicOr(seen, 1u << (v % 32));
    }
}

int main()
{
    int h_x[N];
    for (int i = 0; i < N; i++) h_x[i] = (i * 37) % 1000;
    int *x, *mx, *mn, *first;
    unsigned *hist, *seen;
    CHECK(cudaMalloc(&x, sizeof h_x));
    CHECK(cudaMalloc(&hist, BINS * sizeof(unsigned)));
    CHECK(cudaMalloc(&mx, sizeof(int)));
    CHECK(cudaMalloc(&mn, sizeof(int)));
    CHECK(cudaMalloc(&first, sizeof(int)));
    CHECK(cudaMalloc(&seen, sizeof(unsigned)));
    CHECK(cudaMemcpy(x, h_x, sizeof h_x, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(hist, 0, BINS * sizeof(unsigned)));
    int lo = -1000000, hi = 1000000, none = -1;
    CHECK(cudaMemcpy(mx, &lo, sizeof lo, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(mn, &hi, sizeof hi, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(first, &none, sizeof none, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(seen, 0, sizeof(unsigned)));
    stats<<<8, 128>>>(x, N, hist, mx, mn, first, seen);
    CHECK(cudaGetLastError());
    unsigned h_hist[BINS], h_seen;
    int h_mx, h_mn, h_first;
    CHECK(cudaMemcpy(h_hist, hist, sizeof h_hist, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&h_mx, mx, sizeof h_mx, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&h_mn, mn, sizeof h_mn, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&h_first, first, sizeof h_first, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&h_seen, seen, sizeof h_seen, cudaMemcpyDeviceToHost));
    unsigned total = 0;
    for (int b = 0; b < BINS; b++) total += h_hist[b];
    printf("histogram total %u, max %d, min %d, first block valid %d, bits 0x%08x\n", total, h_mx, h_mn,
           h_first >= 0 && h_first < 8, h_seen);
    CHECK(cudaFree(x));
    CHECK(cudaFree(hist));
    CHECK(cudaFree(mx));
    CHECK(cudaFree(mn));
    CHECK(cudaFree(first));
    CHECK(cudaFree(seen));
    return 0;
}
