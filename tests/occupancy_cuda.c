/* tests/occupancy_cuda.c: common/gpu_model.c's occupancy against CUDA's own
 * calculator (cuda_occupancy.h, header-only, from the CUDA toolkit) on every
 * shipped device file, over thousands of launch shapes. Built and run by
 * tests/ch09_model.sh where the header is installed:
 *   cc -I$CUDA/include -Icommon tests/occupancy_cuda.c common/gpu_model.c common/gpu_device.c
 * The device's limits come from its file; CUDA's calculator takes the same
 * limits and its own per-architecture rules (blocks per SM, allocation
 * units, sub-partitions), so a wrong rule here or a wrong figure in a file
 * shows as a mismatch. Exit 0: all equal; 1: mismatches (the first few
 * printed). */
#include "cuda_occupancy.h"
#include "gpu_model.h"

#include <stdio.h>
#include <string.h>

static int cuda_blocks(const pw_gpu *g, int threads, int regs, int smem)
{
    cudaOccDeviceProp p;
    memset(&p, 0, sizeof p);
    if (sscanf(g->arch, "sm_%1d%1d", &p.computeMajor, &p.computeMinor) != 2) return -100;
    p.maxThreadsPerBlock = g->max_threads_per_block;
    p.maxThreadsPerMultiprocessor = g->max_warps_per_sm * 32;
    p.regsPerBlock = g->regs_per_block;
    p.regsPerMultiprocessor = g->regs_per_sm;
    p.warpSize = 32;
    p.sharedMemPerBlock = 48 * 1024;
    p.sharedMemPerMultiprocessor = (size_t)g->smem_per_sm;
    p.numSms = g->sms;
    p.sharedMemPerBlockOptin = (size_t)g->smem_per_block;
    p.reservedSharedMemPerBlock = (size_t)g->smem_reserved_per_block;
    cudaOccFuncAttributes a;
    memset(&a, 0, sizeof a);
    a.maxThreadsPerBlock = g->max_threads_per_block;
    a.numRegs = regs;
    a.sharedSizeBytes = (size_t)smem;
    a.partitionedGCConfig = PARTITIONED_GC_OFF;
    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    a.maxDynamicSharedSizeBytes = g->smem_per_block - smem;
    cudaOccDeviceState s;
    memset(&s, 0, sizeof s);
    s.carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT;
    cudaOccResult r;
    memset(&r, 0, sizeof r);
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, threads, 0) != CUDA_OCC_SUCCESS) return -1;
    return r.activeBlocksPerMultiprocessor;
}

int main(void)
{
    char names[32][64];
    int nd = pw_gpu_list(names, 32), shapes = 0, bad = 0;
    static const int smems[] = { 0, 1, 1000, 4096, 8192, 16384, 20480, 32768, 40000, 49152, 65536, 70000,
                                 99 * 1024, 100 * 1024, 132 * 1024, 163 * 1024, 200 * 1024, 227 * 1024 };
    for (int d = 0; d < nd && d < 32; d++) {
        pw_gpu g;
        char err[600];
        if (pw_gpu_find(names[d], &g, err, sizeof err)) { printf("%s\n", err); return 1; }
        for (int threads = 32; threads <= g.max_threads_per_block; threads += 32)
            for (int regs = 16; regs <= 256; regs += regs < 64 ? 8 : 24)
                for (size_t k = 0; k < sizeof smems / sizeof smems[0]; k++) {
                    int r = regs > 255 ? 255 : regs, sm = smems[k];
                    if (sm > g.smem_per_block) continue;
                    pw_gpu_launch l = { threads, r, sm, 0 };
                    int ours = pw_gpu_occupancy(&g, &l, NULL, 0).blocks_per_sm, theirs = cuda_blocks(&g, threads, r, sm);
                    if (theirs < 0) theirs = 0;
                    shapes++;
                    if (ours != theirs && bad++ < 5)
                        printf("%s (%s): %d threads, %d registers, %d shared bytes: %d blocks an SM, CUDA says %d\n",
                               g.key, g.arch, threads, r, sm, ours, theirs);
                }
    }
    printf("%d devices, %d launch shapes: %d differ from cuda_occupancy.h\n", nd, shapes, bad);
    return bad ? 1 : 0;
}
