/* exercises/08-cuda-warps/block_sum.cu: exercise 8.1, a block sums its part
 * of an array in shared memory.
 *
 * What it teaches: the threads of a block cooperate through shared memory,
 * and a barrier (__syncthreads) is the only thing that makes one thread's
 * store visible to another. Every thread must reach every barrier, so a
 * thread past the end of the array still takes part (it loads 0); it must
 * not return early.
 *
 * Write block_sum() (the kernel) and block_sum_launch() (the host side),
 * declared in block_sum.h. The checker runs them on the SIMT emulator for
 * sizes 1 .. 100003 and blocks of 32 .. 1024 threads, checks every partial
 * sum, and counts your global loads: each input must be read exactly once.
 *
 * Check your work: make ex-8.1. The answer is in
 * solutions/08-cuda-warps/block_sum.cu: try first.
 */
#include "block_sum.h"
#include "exercise.h"

__global__ void block_sum(const float *in, float *partial, int n)
{
    extern __shared__ float s[];   /* blockDim.x floats, sized by the launch */
    /* TODO:
     *  1. i = blockIdx.x * blockDim.x + threadIdx.x. Store in[i] into
     *     s[threadIdx.x], or 0 when i >= n:   s[t] = i < n ? in[i] : 0.0f;
     *     (the emulator sees every access, and counts them for the checker.)
     *  2. __syncthreads(): every store above is done before anyone reads.
     *  3. Halve: for (step = blockDim.x / 2; step > 0; step /= 2), threads
     *     t < step add s[t + step] into s[t], then __syncthreads() (outside
     *     the if: every thread must reach it).
     *  4. Thread 0 writes s[0] to partial[blockIdx.x].
     * Then delete the two lines below. */
    (void)s; (void)in; (void)partial; (void)n;
}

void block_sum_launch(const float *d_in, float *d_partial, int n, int block)
{
    /* TODO: blocks = ceil(n / block) (pw_ceil_div in util.h, or (n + block - 1) / block);
     * shared memory = block * sizeof(float) bytes; then
     *   block_sum<<<blocks, block, shared_bytes>>>(d_in, d_partial, n);
     * (the third number is the bytes of the extern __shared__ array).
     * Then delete the lines below. */
    (void)d_in; (void)d_partial; (void)n; (void)block;
    PW_NOT_YET_IMPLEMENTED();
}
