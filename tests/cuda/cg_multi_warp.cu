// cg_multi_warp.cu: cooperative groups' tiles of more than one warp, as
// NVIDIA's reduction sample (kernel 9) and the CUDA Programming Guide use
// them: `__shared__ cg::block_tile_memory<N> scratch;`,
// `cg::this_thread_block(scratch)`, `cg::tiled_partition<64..512>(block)`,
// `cg::reduce` (plus, greater; int, float, double), `cg::inclusive_scan`,
// `cg::exclusive_scan`, `tile.shfl`, `tile.any/all`, `tile.sync()`,
// `thread_rank`, `meta_group_rank/size`, a tile of 32 inside a tile of 128,
// a block without block_tile_memory (sm_80+), and a reduce done by one tile
// of the block only (the others skip it). Every thread's result is checked
// against the host; one line per check. Inputs are small integers (exact
// in float and double, whatever the order of the additions).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                            \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(err_)); \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

enum { NOUT = 9 };   // per thread: sum, max, inclusive, exclusive, shfl, any, all, meta rank, inner meta rank

__host__ __device__ int value_of(int gid) { return (gid * 7) % 23 - 5; }   // -5..17, mixed signs

template <unsigned TILE, unsigned BLOCK> __global__ void tileCollectives(int *out)
{
    __shared__ cg::block_tile_memory<BLOCK> scratch;
    cg::thread_block block = cg::this_thread_block(scratch);
    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = value_of(gid);
    int *o = out + gid * NOUT;
    o[0] = cg::reduce(tile, v, cg::plus<int>());
    o[1] = cg::reduce(tile, v, cg::greater<int>());
    o[2] = cg::inclusive_scan(tile, v, cg::plus<int>());
    tile.sync();
    o[3] = cg::exclusive_scan(tile, v, cg::plus<int>());
    o[4] = tile.shfl(v, 5);
    o[5] = tile.any(v == 17);
    o[6] = tile.all(v > -5);
    o[7] = tile.meta_group_rank() * 1000 + tile.meta_group_size() * 10 + (tile.thread_rank() == threadIdx.x % TILE);
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(tile);
    o[8] = warp.meta_group_rank() * 100 + warp.meta_group_size();
}

// 1024 threads in tiles of 512, no block_tile_memory (sm_80+: CUDA's reserve);
// float and double sums.
__global__ void bigTiles(float *fsum, double *dsum)
{
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<512>(block);
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    fsum[gid] = cg::reduce(tile, 0.5f * value_of(gid), cg::plus<float>());
    dsum[gid] = cg::reduce(tile, 0.25 * value_of(gid), cg::plus<double>());
}

// Only the first tile of 128 reduces; the block's other threads skip it, as in the samples.
__global__ void firstTileOnly(int *out)
{
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block block = cg::this_thread_block(scratch);
    auto tile = cg::tiled_partition<128>(block);
    int v = value_of(blockIdx.x * blockDim.x + threadIdx.x), r = -1;
    if (tile.meta_group_rank() == 0)
        r = cg::reduce(tile, v, cg::plus<int>());
    block.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

static int failures = 0;
static void report(const char *name, bool ok)
{
    printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
    failures += !ok;
}

template <unsigned TILE, unsigned BLOCK> static void checkTile(int blocks)
{
    int n = blocks * BLOCK;
    int *d;
    CHECK(cudaMalloc(&d, n * NOUT * sizeof(int)));
    tileCollectives<TILE, BLOCK><<<blocks, BLOCK>>>(d);
    CHECK(cudaGetLastError());
    std::vector<int> h(n * NOUT);
    CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    bool ok[NOUT] = { true, true, true, true, true, true, true, true, true };
    for (int base = 0; base < n; base += TILE) {
        int sum = 0, mx = -100, any = 0, all = 1, run = 0;
        for (int i = base; i < base + (int)TILE; i++) {
            sum += value_of(i);
            mx = value_of(i) > mx ? value_of(i) : mx;
            any |= value_of(i) == 17;
            all &= value_of(i) > -5;
        }
        for (int i = base; i < base + (int)TILE; i++) {
            const int *o = &h[i * NOUT];
            int t = i % BLOCK;
            ok[0] &= o[0] == sum;
            ok[1] &= o[1] == mx;
            ok[3] &= o[3] == run;
            run += value_of(i);
            ok[2] &= o[2] == run;
            ok[4] &= o[4] == value_of(base + 5);
            ok[5] &= o[5] == any;
            ok[6] &= o[6] == all;
            ok[7] &= o[7] == (int)((t / TILE) * 1000 + (BLOCK / TILE) * 10 + 1);
            ok[8] &= o[8] == (int)(((t % TILE) / 32) * 100 + TILE / 32);
        }
    }
    static const char *what[NOUT] = { "reduce plus", "reduce greater", "inclusive_scan", "exclusive_scan", "shfl",
                                      "any", "all", "meta_group_rank/size, thread_rank", "tile of 32 in the tile" };
    for (int k = 0; k < NOUT; k++) {
        char name[128];
        snprintf(name, sizeof name, "tile %u of block %u, %s", TILE, BLOCK, what[k]);
        report(name, ok[k]);
    }
}

int main()
{
    checkTile<64, 128>(3);
    checkTile<128, 512>(2);
    checkTile<256, 512>(2);
    checkTile<512, 1024>(1);

    {
        int blocks = 2, n = blocks * 1024;
        float *df;
        double *dd;
        CHECK(cudaMalloc(&df, n * sizeof(float)));
        CHECK(cudaMalloc(&dd, n * sizeof(double)));
        bigTiles<<<blocks, 1024>>>(df, dd);
        CHECK(cudaGetLastError());
        std::vector<float> hf(n);
        std::vector<double> hd(n);
        CHECK(cudaMemcpy(hf.data(), df, n * sizeof(float), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(hd.data(), dd, n * sizeof(double), cudaMemcpyDeviceToHost));
        bool okf = true, okd = true;
        for (int base = 0; base < n; base += 512) {
            int s = 0;
            for (int i = base; i < base + 512; i++) s += value_of(i);
            for (int i = base; i < base + 512; i++) {
                okf &= hf[i] == 0.5f * s;
                okd &= hd[i] == 0.25 * s;
            }
        }
        report("tile 512 of block 1024 without block_tile_memory, reduce float", okf);
        report("tile 512 of block 1024 without block_tile_memory, reduce double", okd);
        CHECK(cudaFree(df));
        CHECK(cudaFree(dd));
    }
    {
        int blocks = 2, n = blocks * 256;
        int *d;
        CHECK(cudaMalloc(&d, n * sizeof(int)));
        firstTileOnly<<<blocks, 256>>>(d);
        CHECK(cudaGetLastError());
        std::vector<int> h(n);
        CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int b = 0; b < blocks; b++) {
            int s = 0;
            for (int i = b * 256; i < b * 256 + 128; i++) s += value_of(i);
            for (int i = b * 256; i < b * 256 + 256; i++) ok &= h[i] == (i - b * 256 < 128 ? s : -1);
        }
        report("only the first tile of 128 reduces", ok);
        CHECK(cudaFree(d));
    }
    printf("cg_multi_warp: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
