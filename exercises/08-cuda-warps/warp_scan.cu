/* exercises/08-cuda-warps/warp_scan.cu: exercise 8.2, a prefix sum inside a
 * warp, with shuffles.
 *
 * The task: every warp of 32 lanes computes the inclusive prefix sum of its
 * 32 elements, passing values from register to register with warp shuffles
 * (__shfl_up_sync and its relatives), in log2(32) = 5 steps. Why it is a
 * lesson: the lanes of a warp can read each other's registers directly, with
 * no shared memory and no barrier, which is how fast reductions and scans
 * finish on a GPU. A shuffle names the lanes that take part (its mask); with
 * the full warp, every lane must call it, so a lane past the end of the
 * array still takes part: it must not return early.
 *
 * The interface (warp_scan.h):
 *   __global__ void warp_scan(const int *in, int *out, int n);
 *     - out[i] = in[32*(i/32)] + ... + in[i]: the scan restarts at every
 *       multiple of 32 (each warp's own); elements at index n and beyond
 *       count as 0 and are not written (out has n elements);
 *     - registers and shuffles only: no shared memory; each input read once.
 *   void warp_scan_launch(const int *d_in, int *d_out, int n, int block);
 *     - device pointers; `block` is a multiple of 32; enough blocks for n.
 *
 * What the checker tries (check_warp_scan.c), on the SIMT emulator:
 * n = 1, 5, 32, 33, 1000, 10007 (a partial last warp) with blocks of 32, 64,
 * 96, 256 and 1024 threads; whole numbers, so the check is exact. Then the
 * counts: n global loads, no shared-memory access, exactly 5 shuffles per
 * warp.
 *
 *   make ex-8.2      grade this file (each failure is explained)
 *   make hint-8.2    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/08-cuda-warps/warp_scan.cu: try first.
 */
#include "exercise.h"
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    /* TODO: the kernel. Then delete the placeholder line below. */
    (void)in; (void)out; (void)n;
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    /* TODO: the launch. Then delete the placeholder lines below. */
    (void)d_in; (void)d_out; (void)n; (void)block;
    PW_NOT_YET_IMPLEMENTED();
}
