/* exercises/08-cuda-warps/block_sum.cu: exercise 8.1, a block sums its part
 * of an array in shared memory.
 *
 * The task: every block of B threads adds up its B consecutive elements of
 * the input and writes one partial sum, by a tree in shared memory: log2(B)
 * rounds, each halving the number of values still to add. Why it is a
 * lesson: the threads of a block cooperate only through shared memory, and
 * a barrier (__syncthreads) is the one thing that makes one thread's store
 * visible to another. Every thread of the block must reach every barrier,
 * including a thread whose element lies past the end of the array: an early
 * return hangs a GPU (the emulator reports it instead).
 *
 * The interface (block_sum.h):
 *   __global__ void block_sum(const float *in, float *partial, int n);
 *     - partial[b] = in[b*B] + ... + in[b*B + B-1], B = blockDim.x, a power
 *       of two from 32 to 1024; elements at index n and beyond count as 0
 *       (the last block may be partial, or the whole array shorter than B);
 *     - shared memory: B floats of DYNAMIC shared memory (an extern
 *       __shared__ array, sized by the launch);
 *     - each input element is read from global memory exactly once.
 *   void block_sum_launch(const float *d_in, float *d_partial, int n, int block);
 *     - device pointers; as many blocks of `block` threads as it takes to
 *       cover n elements, with the shared memory block_sum needs.
 *
 * What the checker tries (check_block_sum.c), on the SIMT emulator:
 * n = 1, 31, 32, 33, 1000, 4099, 100003 with blocks of 32, 64, 128, 256, 512
 * and 1024 threads; whole numbers in [-8, 8], so every partial sum is exact
 * and compared with ==. Then the emulator's counts: n global loads, the
 * number of blocks, at least log2(B) barriers per block, every element
 * stored in shared memory, and few shared-memory requests (one thread adding the whole
 * block by itself is caught).
 *
 *   make ex-8.1      grade this file (each failure is explained)
 *   make hint-8.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/08-cuda-warps/block_sum.cu: try first.
 */
#include "block_sum.h"
#include "exercise.h"

__global__ void block_sum(const float *in, float *partial, int n)
{
    /* TODO: the kernel. Then delete the placeholder line below. */
    (void)in; (void)partial; (void)n;
}

void block_sum_launch(const float *d_in, float *d_partial, int n, int block)
{
    /* TODO: the launch. Then delete the placeholder lines below. */
    (void)d_in; (void)d_partial; (void)n; (void)block;
    PW_NOT_YET_IMPLEMENTED();
}
