/* exercises/08-cuda-warps/shared.cu: GPU puzzle 8.11, shared.
 *
 * The task: out[i] = a[i] + a[i ^ 1], each element plus its partner
 * (elements 0 and 1 are partners, 2 and 3, ...; i ^ 1 flips the last bit).
 * When n is odd the last element has no partner: a[n] counts as 0. The
 * launch is given: blocks of SHARED_TPB = 8 threads, ceil(n / 8) of them,
 * so partners are always in the same block. Why it is a lesson: every
 * element is needed by two threads, but a thread may read only one element
 * from global memory. The other comes through the block's __shared__ memory:
 * each thread stores its element into a shared array (0 past the end), the
 * block waits at __syncthreads() until every thread has stored, then each
 * thread reads its partner's from there. Without the barrier a thread may
 * read its partner's slot before the partner stored it: the emulator's
 * racecheck reports that even when the values come out right.
 *
 * The budget: each thread makes at most 1 global read and 1 global write,
 * n of each in all. Shared memory is not counted: that is the point. The
 * checker also asks for shared memory and a __syncthreads() per block (a
 * warp shuffle or a __syncwarp() would do in a block of 8, which is one
 * warp; the puzzle is the block's way, which works for any block size).
 *
 * What the checker tries (check_shared.c), on the SIMT emulator: n = 11
 * (2 blocks, the last with 5 spare threads, element 10 without a partner)
 * with the access picture, then n = 1, 2, 8, 9, 97, 1000. The arrays are
 * allocated with exactly n elements: a thread past the end that loads a[i]
 * is stopped (memcheck).
 *
 *   make ex-8.11     grade this file (it prints the access picture)
 *   make hint-8.11   one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/shared.cu: try first.
 */
#include "exercise.h"
#include "shared.h"

__global__ void shared_pairs(const float *a, float *out, int n)
{
    /* TODO: a __shared__ float array of SHARED_TPB; this thread's element (or 0 past the end) stored
     * into it; __syncthreads(); then, for i < n, out[i] from the thread's own value and its partner's
     * slot. Then delete the placeholder line below. */
    (void)a; (void)out; (void)n;
}

void shared_launch(const float *d_a, float *d_out, int n)
{
    shared_pairs<<<(n + SHARED_TPB - 1) / SHARED_TPB, SHARED_TPB>>>(d_a, d_out, n);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when shared_pairs is written */
}
