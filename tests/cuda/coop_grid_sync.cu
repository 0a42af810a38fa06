// coop_grid_sync.cu: a grid-wide reduction in two phases, with grid.sync()
// between them, in a cooperative launch.
// Phase 1: each block sums its grid-stride share of the input into
// partial[block]. grid.sync(): every block's partial is written. Phase 2:
// block 0 sums the partials into the total. grid.sync() again: every
// block reads the total and checks it. No second launch and no atomics:
// the grid barrier alone orders the phases.
// Conformance: cudaDevAttrCooperativeLaunch, the grid sized from
// cudaOccupancyMaxActiveBlocksPerMultiprocessor times the multiprocessors
// (as NVIDIA's samples do; at most 16 blocks here), cudaLaunchCooperativeKernel
// with its argument array, cg::this_grid(), grid_group::sync(),
// is_valid() (true here, false in a <<<>>> launch), num_blocks(),
// block_rank(), thread_rank(), size(); a grid one block too large is
// refused with cudaErrorCooperativeLaunchTooLarge.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
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

#define BLOCK 128

__global__ void gridSum(const int *in, int n, long long *partial, long long *total, int *agree, int *ranks)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ long long s[BLOCK];
    long long mine = 0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        mine += in[i];
    s[block.thread_rank()] = mine;
    block.sync();
    for (int w = BLOCK / 2; w > 0; w /= 2) {
        if (block.thread_rank() < w)
            s[block.thread_rank()] += s[block.thread_rank() + w];
        block.sync();
    }
    if (block.thread_rank() == 0)
        partial[grid.block_rank()] = s[0];
    grid.sync();   // every partial is in
    if (grid.block_rank() == 0 && block.thread_rank() == 0) {
        long long t = 0;
        for (unsigned long long b = 0; b < grid.num_blocks(); b++)
            t += partial[b];
        *total = t;
    }
    grid.sync();   // the total is in
    if (block.thread_rank() == 0) {   // every block sees every partial and the total
        long long t = 0;
        for (unsigned long long b = 0; b < grid.num_blocks(); b++)
            t += partial[b];
        agree[grid.block_rank()] = *total == t;
        ranks[grid.block_rank()] = (int)(grid.thread_rank() / BLOCK) == (int)grid.block_rank() && grid.is_valid();
    }
}

__global__ void validInPlainLaunch(int *out) { *out = cg::this_grid().is_valid() ? 1 : 0; }

int main()
{
    int dev = 0, coop = 0, sms = 0, perSm = 0;
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, gridSum, BLOCK, 0));
    printf("cooperative launch supported: %d\n", coop);
    int fit = perSm * sms, blocks = fit < 16 ? fit : 16;
    if (!coop || blocks < 2) {
        printf("coop_grid_sync: cannot run here (%d blocks fit)\n", fit);
        return 1;
    }

    const int N = 100003;   // not a multiple of anything: the tails count
    int *h = (int *)malloc(N * sizeof(int)), *in, *agree, *ranks, *valid;
    long long want = 0, *partial, *total, got = 0;
    for (int i = 0; i < N; i++) {
        h[i] = (i * 37) % 1001 - 500;
        want += h[i];
    }
    CHECK(cudaMalloc(&in, N * sizeof(int)));
    CHECK(cudaMalloc(&partial, blocks * sizeof(long long)));
    CHECK(cudaMalloc(&total, sizeof(long long)));
    CHECK(cudaMalloc(&agree, blocks * sizeof(int)));
    CHECK(cudaMalloc(&ranks, blocks * sizeof(int)));
    CHECK(cudaMalloc(&valid, sizeof(int)));
    CHECK(cudaMemcpy(in, h, N * sizeof(int), cudaMemcpyHostToDevice));

    int n = N;
    void *args[] = { &in, &n, &partial, &total, &agree, &ranks };
    CHECK(cudaLaunchCooperativeKernel(gridSum, dim3(blocks), dim3(BLOCK), args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
    int *ha = (int *)malloc(2 * blocks * sizeof(int)), all = 1;
    CHECK(cudaMemcpy(ha, agree, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ha + blocks, ranks, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < 2 * blocks; b++)
        all = all && ha[b] == 1;
    printf("grid sum of %d values in two phases: %lld (want %lld)\n", N, got, want);
    printf("every block saw the total after grid.sync(), with valid ranks: %s\n", all ? "yes" : "no");

    cudaError_t big = cudaLaunchCooperativeKernel(gridSum, dim3(fit + 1), dim3(BLOCK), args, 0, 0);
    printf("a cooperative grid one block too large: %s\n", cudaGetErrorName(big));
    cudaGetLastError();   // (clear it)

    validInPlainLaunch<<<2, 32>>>(valid);
    CHECK(cudaGetLastError());
    int hv = -1;
    CHECK(cudaMemcpy(&hv, valid, sizeof hv, cudaMemcpyDeviceToHost));
    printf("this_grid().is_valid() in a <<<>>> launch: %d\n", hv);

    int bad = got != want || !all || big != cudaErrorCooperativeLaunchTooLarge || hv != 0;
    printf("coop_grid_sync: %s\n", bad ? "FAIL" : "PASS");
    free(h);
    free(ha);
    CHECK(cudaFree(in));
    CHECK(cudaFree(partial));
    CHECK(cudaFree(total));
    CHECK(cudaFree(agree));
    CHECK(cudaFree(ranks));
    CHECK(cudaFree(valid));
    return bad ? 1 : 0;
}
