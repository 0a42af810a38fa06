/* exercises/08-cuda-warps/prefix_sum.cu: GPU puzzle 8.15, prefix sum.
 *
 * The task: within each block of B threads, out[i] = the sum of the block's
 * elements up to and including a[i] (an inclusive scan that starts again
 * in every block; a second pass over the blocks' totals would join them
 * into one scan of the whole array, which this puzzle leaves out). The
 * launch is written for you: ceil(n / B) blocks of B threads, 2B floats of
 * dynamic shared memory per block (extern __shared__ float s[];). The last
 * block is usually partial: its missing elements count as 0, and nothing
 * at or past n is read or written.
 *
 * Why it is a lesson: thread t's answer depends on the t elements before
 * it, so one thread alone would need t steps. In log2(B) steps instead:
 * at step d = 1, 2, 4, ... every thread adds the value d places to its left
 * (if there is one); after the step with d, each holds the sum of its last
 * 2d elements. The trap: reading s[t - d] while thread t - d is already
 * overwriting it in the same step. Two buffers (read one, write the other,
 * a barrier, swap) or two barriers per step keep the reads and writes apart.
 *
 * The budget: each thread 1 global read and 1 global write, and at most
 * 4 log2(B) + 4 shared-memory reads (a scan of log2(B) steps reads 2 per
 * step; one thread adding up its prefix one element at a time reads up to
 * B: 32 at B = 32, against 24 allowed).
 *
 * What the checker tries (check_prefix_sum.c), on the SIMT emulator: n = 12
 * in blocks of 8 with the access picture (which thread touched which
 * element of a, out and the shared array s), then (n, B) = (1, 1), (1, 8),
 * (5, 8), (8, 8), (32, 32), (33, 32), (100, 16), (777, 128), (1000, 64),
 * (1000, 256). Exact: small whole numbers. racecheck sees every shared
 * access.
 *
 *   make ex-8.15      grade this file (it prints the access picture)
 *   make hint-8.15    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/prefix_sum.cu: try first.
 */
#include "exercise.h"
#include "prefix_sum.h"

__global__ void prefix_sum(const float *a, float *out, int n)
{
    /* TODO: 1. load your element (0 past n) into shared memory, __syncthreads()
     *       2. for d = 1, 2, 4, ... < B: add the value d places to the left, without
     *          overwriting what another thread still has to read in this step
     *       3. store your sum (only if i < n)
     * Then delete the placeholder line below. */
    (void)a; (void)out; (void)n;
}

void prefix_sum_launch(const float *d_a, float *d_out, int n, int block)
{
    int blocks = (n + block - 1) / block;
    prefix_sum<<<blocks, block, 2 * block * sizeof(float)>>>(d_a, d_out, n);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when prefix_sum is written */
}
