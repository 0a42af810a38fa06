// coalesced_groups.cu: cg::coalesced_threads() inside divergent branches,
// the way the CUDA Programming Guide's "warp-aggregated atomics" and
// stream compaction use it:
//   if (keep) { cg::coalesced_group g = cg::coalesced_threads();
//               if (g.thread_rank() == 0) base = atomicAdd(count, g.size());
//               base = g.shfl(base, 0) + g.thread_rank(); }
// and an if/else whose two sides each take their own group and reduce over
// it (cg::reduce with bit_or, plus), scan over it (cg::exclusive_scan),
// and vote (g.any, g.all). What is checked holds for any grouping CUDA
// allows (every member took the same side; ranks are 0..size-1 in lane
// order), plus that each side's group is that side's lanes, which is what
// a GPU gives for a plain if/else.
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

__host__ __device__ bool keep(int i) { return (i * 13) % 7 < 3; }   // about 3 in 7, scattered

// Warp-aggregated atomics: each kept element gets a unique slot of out.
__global__ void compact(int n, int *count, int *slotOf)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && keep(i)) {
        cg::coalesced_group g = cg::coalesced_threads();
        int base = 0;
        if (g.thread_rank() == 0)
            base = atomicAdd(count, (int)g.size());
        base = g.shfl(base, 0);
        slotOf[i] = base + (int)g.thread_rank();
    }
}

// if/else: per thread, its group's lanes (a bit mask), size, rank, sum of
// lane numbers, exclusive scan of 1, any/all.
enum { NOUT = 7 };
__global__ void sides(int *out)
{
    int t = threadIdx.x, lane = t % 32;
    int *o = out + (blockIdx.x * blockDim.x + t) * NOUT;
    if (keep(t)) {
        cg::coalesced_group g = cg::coalesced_threads();
        o[0] = (int)cg::reduce(g, 1u << lane, cg::bit_or<unsigned>());
        o[1] = (int)g.size();
        o[2] = (int)g.thread_rank();
        o[3] = cg::reduce(g, lane, cg::plus<int>());
        o[4] = cg::exclusive_scan(g, 1);
        o[5] = g.any(lane == 0);
        o[6] = g.all(keep(t));
    } else {
        cg::coalesced_group g = cg::coalesced_threads();
        o[0] = (int)cg::reduce(g, 1u << lane, cg::bit_or<unsigned>());
        o[1] = (int)g.size();
        o[2] = (int)g.thread_rank();
        o[3] = cg::reduce(g, lane, cg::plus<int>());
        o[4] = cg::exclusive_scan(g, 1);
        o[5] = g.any(lane == 0);
        o[6] = g.all(!keep(t));
    }
}

static int failures = 0;
static void report(const char *name, bool ok)
{
    printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
    failures += !ok;
}

int main()
{
    const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
    int *dCount, *dSlot;
    CHECK(cudaMalloc(&dCount, sizeof(int)));
    CHECK(cudaMalloc(&dSlot, n * sizeof(int)));
    CHECK(cudaMemset(dCount, 0, sizeof(int)));
    CHECK(cudaMemset(dSlot, 0xff, n * sizeof(int)));   // -1: not kept
    compact<<<blocks, threads>>>(n, dCount, dSlot);
    CHECK(cudaGetLastError());
    int count = 0;
    std::vector<int> slot(n);
    CHECK(cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(slot.data(), dSlot, n * sizeof(int), cudaMemcpyDeviceToHost));
    int kept = 0;
    for (int i = 0; i < n; i++) kept += keep(i);
    std::vector<int> seen(kept, 0);
    bool unique = count == kept;
    for (int i = 0; i < n && unique; i++) {
        if (!keep(i)) { unique = slot[i] == -1; continue; }
        unique = slot[i] >= 0 && slot[i] < kept && !seen[slot[i]]++;
    }
    printf("warp-aggregated atomics: %d of %d elements kept\n", count, n);
    report("every kept element has its own slot", unique);

    const int sb = 96, sblocks = 2;   // three warps, two blocks
    int *dOut;
    CHECK(cudaMalloc(&dOut, sb * sblocks * NOUT * sizeof(int)));
    sides<<<sblocks, sb>>>(dOut);
    CHECK(cudaGetLastError());
    std::vector<int> h(sb * sblocks * NOUT);
    CHECK(cudaMemcpy(h.data(), dOut, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
    bool same_side = true, ranks = true, sums = true, scans = true, votes = true, whole_side = true;
    for (int b = 0; b < sblocks; b++)
        for (int t = 0; t < sb; t++) {
            const int *o = &h[(b * sb + t) * NOUT];
            unsigned m = (unsigned)o[0], side = 0;
            int lane = t % 32, warp0 = t - lane, sum = 0;
            for (int l = 0; l < 32; l++) {
                if (keep(warp0 + l) == keep(t)) side |= 1u << l;
                if (m >> l & 1u) {
                    same_side &= keep(warp0 + l) == keep(t);
                    sum += l;
                }
            }
            ranks &= (m >> lane & 1u) && o[1] == __builtin_popcount(m) &&
                     o[2] == __builtin_popcount(m & ((1u << lane) - 1));
            sums &= o[3] == sum;
            scans &= o[4] == o[2];
            votes &= o[5] == (int)(m & 1u) && o[6] == 1;
            whole_side &= m == side;
        }
    report("every member of a group took the same side", same_side);
    report("size and thread_rank: the members in lane order", ranks);
    report("cg::reduce over the group", sums);
    report("cg::exclusive_scan over the group", scans);
    report("any and all over the group", votes);
    report("each side's group is that side's lanes", whole_side);
    CHECK(cudaFree(dCount));
    CHECK(cudaFree(dSlot));
    CHECK(cudaFree(dOut));
    printf("coalesced_groups: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
