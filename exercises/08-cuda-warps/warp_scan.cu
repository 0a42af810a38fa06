/* exercises/08-cuda-warps/warp_scan.cu: exercise 8.2, a prefix sum inside a
 * warp with __shfl_up_sync.
 *
 * What it teaches: the 32 lanes of a warp can read each other's registers
 * (a shuffle), with no shared memory and no barrier. A scan takes log2(32)
 * = 5 steps: at step d (1, 2, 4, 8, 16) each lane adds the value of the lane
 * d below it, if there is one. A shuffle with the full mask 0xffffffff needs
 * all 32 lanes: a lane past the end of the array must still take part.
 *
 * Write warp_scan() and warp_scan_launch() (declared in warp_scan.h). The
 * checker runs them on the SIMT emulator for sizes 1 .. 10007 and blocks of
 * 32 .. 1024, checks every element, and counts: each input read once, no
 * shared memory, 5 shuffles per warp.
 *
 * Check your work: make ex-8.2. The answer: solutions/08-cuda-warps/warp_scan.cu.
 */
#include "exercise.h"
#include "warp_scan.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    /* TODO:
     *  1. i = blockIdx.x * blockDim.x + threadIdx.x; lane = threadIdx.x % warpSize;
     *     v = i < n ? in[i] : 0. (No return for i >= n: those lanes
     *     must join the shuffles.)
     *  2. for (d = 1; d < 32; d *= 2): up = __shfl_up_sync(0xffffffff, v, d);
     *     if (lane >= d) v += up;     (lanes below d get their own v back: skip it)
     *  3. if (i < n) out[i] = v;
     * Then delete the line below. */
    (void)in; (void)out; (void)n;
}

void warp_scan_launch(const int *d_in, int *d_out, int n, int block)
{
    /* TODO: enough blocks of `block` threads for n elements, no shared memory:
     *   warp_scan<<<blocks, block, 0>>>(d_in, d_out, n);
     * Then delete the lines below. */
    (void)d_in; (void)d_out; (void)n; (void)block;
    PW_NOT_YET_IMPLEMENTED();
}
