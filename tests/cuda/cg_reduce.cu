// cg_reduce.cu: block sums with cooperative groups, the modern spelling of
// the warp-level reduction.
//   sumTiles     each 32-thread tile reduces through shared memory with
//                tile.sync() between steps (the correct form of the old
//                warp-synchronous idiom), then tile 0 combines the tiles'
//                totals with tile.shfl_down.
//   sumCgReduce  the same with cg::reduce(tile, v, cg::plus<int>()) from
//                <cooperative_groups/reduce.h>, plus a maximum with
//                cg::greater<int>().
// Conformance: namespace alias, cg::this_thread_block(), tiled_partition<32>,
// thread_rank / meta_group_rank / meta_group_size / size, tile.sync(),
// b.sync(), cg::reduce.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,   \
                    #call, cudaGetErrorName(err_));                         \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

#define MAX_BLOCK 1024

// Lane 0 of the tile gets the tile's sum (the other lanes, partial sums).
__device__ int tileShflSum(cg::thread_block_tile<32> tile, int v)
{
    for (int offset = tile.size() / 2; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);
    return v;
}

// *total += the sum of in[0..n); blockDim.x a multiple of 32.
__global__ void sumTiles(const int *in, int *total, int n)
{
    __shared__ int s[MAX_BLOCK];
    __shared__ int tileSums[MAX_BLOCK / 32];
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(b);
    int i = blockIdx.x * blockDim.x + b.thread_rank();
    unsigned t = b.thread_rank(), lane = tile.thread_rank();

    s[t] = i < n ? in[i] : 0;
    tile.sync();
    for (unsigned offset = 16; offset > 0; offset /= 2) {
        if (lane < offset)
            s[t] += s[t + offset];
        tile.sync();
    }
    if (lane == 0)
        tileSums[tile.meta_group_rank()] = s[t];
    b.sync();

    if (tile.meta_group_rank() == 0) {
        int v = lane < tile.meta_group_size() ? tileSums[lane] : 0;
        v = tileShflSum(tile, v);
        if (lane == 0)
            atomicAdd(total, v);
    }
}

// *total += the sum, *largest = max(*largest, the largest element).
__global__ void sumCgReduce(const int *in, int *total, int *largest, int n)
{
    cg::thread_block b = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(b);
    int i = blockIdx.x * blockDim.x + b.thread_rank();
    int v = i < n ? in[i] : 0;
    int m = i < n ? in[i] : -1000000;
    int sum = cg::reduce(tile, v, cg::plus<int>());
    int big = cg::reduce(tile, m, cg::greater<int>());
    if (tile.thread_rank() == 0) {
        atomicAdd(total, sum);
        atomicMax(largest, big);
    }
}

static bool run(int n, int block)
{
    int *h = (int *)malloc(n * sizeof(int));
    long long want = 0;
    int wantMax = -1000000;
    for (int i = 0; i < n; i++) {
        h[i] = (i * 13) % 29 - 9 + (i == n / 3 ? 500 : 0);  // one spike for the maximum
        want += h[i];
        if (h[i] > wantMax)
            wantMax = h[i];
    }
    int *in, *acc;  // acc: total for sumTiles, total and largest for sumCgReduce
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&acc, 3 * sizeof(int)));
    CHECK(cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int init[3] = {0, 0, -1000000};
    CHECK(cudaMemcpy(acc, init, sizeof init, cudaMemcpyHostToDevice));

    int grid = (n + block - 1) / block;
    sumTiles<<<grid, block>>>(in, acc, n);
    CHECK(cudaGetLastError());
    sumCgReduce<<<grid, block>>>(in, acc + 1, acc + 2, n);
    CHECK(cudaGetLastError());
    int got[3];
    CHECK(cudaMemcpy(got, acc, sizeof got, cudaMemcpyDeviceToHost));

    bool ok = got[0] == want && got[1] == want && got[2] == wantMax;
    printf("cg_reduce: %s n=%d block=%d tiles: sum=%d cg::reduce: sum=%d max=%d (want %lld, %d)\n",
           ok ? "PASS" : "FAIL", n, block, got[0], got[1], got[2], want, wantMax);
    CHECK(cudaFree(in));
    CHECK(cudaFree(acc));
    free(h);
    return ok;
}

int main()
{
    bool ok = true;
    ok &= run(1, 32);
    ok &= run(1000, 128);
    ok &= run(65536, 256);
    ok &= run(50001, 1024);
    return ok ? 0 : 1;
}
