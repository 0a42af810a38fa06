// histogram.cu: a 256-bin histogram of bytes, privatized per block in
// shared memory, the standard first use of shared-memory atomics.
// Conformance: a static __shared__ array zeroed with plain stores in a loop
// strided by blockDim.x (so block sizes below 256 zero several bins each),
// __syncthreads, atomicAdd on shared memory, a grid-stride loop, then
// atomicAdd of each block's bins into global memory. Several sizes and block
// sizes, each checked bin by bin against a CPU histogram.
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

#define BINS 256

__global__ void histogram256(const unsigned char *data, int n, unsigned int *hist)
{
    __shared__ unsigned int bins[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        bins[b] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1u);
    __syncthreads();

    // One global atomic per bin per block instead of one per byte.
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (bins[b] != 0)
            atomicAdd(&hist[b], bins[b]);
}

// Bytes from a fixed LCG, every 5th one a 7 so that one bin stands out.
static void fill(unsigned char *data, int n)
{
    unsigned int s = 12345u;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        data[i] = (i % 5 == 0) ? 7 : (unsigned char)(s >> 24);
    }
}

static bool run(int n, int block)
{
    unsigned char *h_data = (unsigned char *)malloc(n);
    fill(h_data, n);
    unsigned int want[BINS] = {0}, got[BINS];
    for (int i = 0; i < n; i++)
        want[h_data[i]]++;

    unsigned char *d_data;
    unsigned int *d_hist;
    CHECK(cudaMalloc(&d_data, n));
    CHECK(cudaMalloc(&d_hist, BINS * sizeof(unsigned int)));
    CHECK(cudaMemcpy(d_data, h_data, n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_hist, 0, BINS * sizeof(unsigned int)));

    int grid = (n + block - 1) / block;
    if (grid > 30)
        grid = 30;  // a few blocks, each looping over the input
    histogram256<<<grid, block>>>(d_data, n, d_hist);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, d_hist, sizeof got, cudaMemcpyDeviceToHost));

    int bad = 0, busiest = 0;
    for (int b = 0; b < BINS; b++) {
        if (got[b] != want[b] && bad++ < 5)
            printf("  bin %d = %u, want %u\n", b, got[b], want[b]);
        if (got[b] > got[busiest])
            busiest = b;
    }
    printf("histogram: %s n=%d block=%d grid=%d bin[0]=%u bin[7]=%u bin[255]=%u busiest=%d\n",
           bad ? "FAIL" : "PASS", n, block, grid, got[0], got[7], got[255], busiest);
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_hist));
    free(h_data);
    return bad == 0;
}

int main()
{
    bool ok = true;
    ok &= run(1, 64);
    ok &= run(1000, 256);
    ok &= run(65537, 64);
    ok &= run(65537, 1024);
    ok &= run(100000, 96);
    return ok ? 0 : 1;
}
