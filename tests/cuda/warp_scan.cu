// warp_scan.cu: an inclusive prefix sum, built from warp shuffles.
// Step 1: each warp scans its 32 values with __shfl_up_sync (log2 32 = 5
// steps, no shared memory); step 2: the warps' totals go through shared
// memory and warp 0 scans them; step 3: each warp adds the total of the
// warps before it. Across blocks: the block totals are scanned by the same
// kernel in one block, then added back (the classic scan-then-propagate).
// Conformance: __shfl_up_sync with a full mask, lane and warp arithmetic,
// threads past n that still take part in the shuffles, three launches.
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

#define WARP 32

// Lane k returns v(0) + ... + v(k) over its warp; all 32 lanes must call it.
__device__ int warpInclusiveScan(int v)
{
    int lane = threadIdx.x % WARP;
    for (int d = 1; d < WARP; d *= 2) {
        int y = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += y;
    }
    return v;
}

// Inclusive scan of each block's slice of in; blockSums[b] = block b's total
// (when not null). blockDim.x must be a multiple of 32, at most 1024.
__global__ void blockScan(const int *in, int *out, int *blockSums, int n)
{
    __shared__ int warpSums[WARP];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    int v = warpInclusiveScan(i < n ? in[i] : 0);
    if (lane == WARP - 1)
        warpSums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int warps = blockDim.x / WARP;
        int s = warpInclusiveScan(lane < warps ? warpSums[lane] : 0);
        if (lane < warps)
            warpSums[lane] = s;
    }
    __syncthreads();
    if (warp > 0)
        v += warpSums[warp - 1];
    if (i < n)
        out[i] = v;
    if (blockSums != nullptr && threadIdx.x == blockDim.x - 1)
        blockSums[blockIdx.x] = v;
}

// out[i] += the inclusive scan of the block totals before i's block.
__global__ void addBlockOffsets(int *out, const int *scannedSums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < n)
        out[i] += scannedSums[blockIdx.x - 1];
}

static bool run(int n, int block)
{
    int grid = (n + block - 1) / block;  // at most 1024 blocks: their sums are scanned by one block
    int *h = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h[i] = (i * 7) % 11 - 3;  // -3 .. 7: the sum grows
    int *in, *out, *sums, *scannedSums;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    CHECK(cudaMalloc(&sums, grid * sizeof(int)));
    CHECK(cudaMalloc(&scannedSums, grid * sizeof(int)));
    CHECK(cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice));

    blockScan<<<grid, block>>>(in, out, sums, n);
    CHECK(cudaGetLastError());
    int sumBlock = (grid + WARP - 1) / WARP * WARP;
    blockScan<<<1, sumBlock>>>(sums, scannedSums, nullptr, grid);
    CHECK(cudaGetLastError());
    addBlockOffsets<<<grid, block>>>(out, scannedSums, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, out, n * sizeof(int), cudaMemcpyDeviceToHost));

    int bad = 0, want = 0;
    for (int i = 0; i < n; i++) {
        want += h[i];
        if (got[i] != want && bad++ < 5)
            printf("  out[%d] = %d, want %d\n", i, got[i], want);
    }
    printf("warp_scan: %s n=%d block=%d grid=%d out[%d]=%d out[%d]=%d\n", bad ? "FAIL" : "PASS", n, block, grid,
           n / 2, got[n / 2], n - 1, got[n - 1]);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(sums));
    CHECK(cudaFree(scannedSums));
    free(h);
    free(got);
    return bad == 0;
}

int main()
{
    bool ok = true;
    ok &= run(1, 32);
    ok &= run(33, 64);
    ok &= run(1000, 128);
    ok &= run(100000, 256);
    ok &= run(70000, 1024);
    return ok ? 0 : 1;
}
