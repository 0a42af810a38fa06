/* exercises/08-cuda-warps/blocks.cu: GPU puzzle 8.10, blocks.
 *
 * The task: out[i] = a[i] + 10 once more, now with more elements than one
 * block has threads: the launch is a grid of blocks, and you write it. A
 * block has at most 1024 threads; a real array has millions of elements,
 * so every real kernel is launched this way. Why it is a lesson: a thread's
 * element is no longer threadIdx.x, which restarts at 0 in every block; and
 * the number of blocks is n / block rounded up, not down (9 elements in
 * blocks of 4 need 3 blocks, the last with 3 threads to spare).
 *
 * The budget: each thread makes at most 1 global read and 1 global write;
 * n of each in all. The launch: blocks of exactly `block` threads, and
 * exactly as many blocks as cover n (one more would be a block with
 * nothing to do).
 *
 * What the checker tries (check_blocks.c), on the SIMT emulator: n = 9 in
 * blocks of 4 with the access picture, then n = 1 (block 4), 8 (4: no
 * thread to spare), 31 (8), 97 (32), 1000 (128), 100003 (256: 391 blocks).
 * The arrays are allocated with exactly n elements, so the emulator stops a
 * kernel that runs off the end. It reads the launch's shape from the
 * emulator: blocks and threads per block.
 *
 *   make ex-8.10     grade this file (it prints the access picture)
 *   make hint-8.10   one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/blocks.cu: try first.
 */
#include "exercise.h"
#include "blocks.h"

__global__ void blocks(const float *a, float *out, int n)
{
    /* TODO: this thread's element, counted over the whole grid; a guard; 8.5's line.
     * Then delete the placeholder line below. */
    (void)a; (void)out; (void)n;
}

void blocks_launch(const float *d_a, float *d_out, int n, int block)
{
    /* TODO: how many blocks of `block` threads cover n elements? Then launch blocks<<<grid, block>>>. */
    (void)d_a; (void)d_out; (void)n; (void)block;
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when blocks and its launch are written */
}
