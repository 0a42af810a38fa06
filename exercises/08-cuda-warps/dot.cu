/* exercises/08-cuda-warps/dot.cu: GPU puzzle 8.13, dot.
 *
 * The task: out[0] = sum over i of a[i] b[i]. The launch is written for
 * you: one block of exactly n threads with n floats of dynamic shared
 * memory (extern __shared__ float s[];). Every thread multiplies its pair;
 * then the n products must become one number, and only one thread may
 * write it.
 *
 * Why it is a lesson: threads cannot add into one variable by all writing
 * it (the writes overwrite each other). They cooperate through shared
 * memory: each stores its product, a __syncthreads() makes them all
 * visible, and then the products are added there. The fast way adds pairs
 * in a tree: n/2 threads add at once, then n/4, ..., log2(n) steps with a
 * barrier after each; n is not always a power of two (3, 33, 1000).
 *
 * The budget: each thread at most 2 global reads (its a[i] and b[i]); 1
 * global write in all (out[0], by one thread). This puzzle counts global
 * memory only: thread 0 adding the n products from shared memory one after
 * another passes here (8.15 and 8.16 count shared-memory reads too).
 *
 * What the checker tries (check_dot.c), on the SIMT emulator: n = 8 with
 * the access picture (which thread touched which element of a, b, out and
 * the shared array s), then n = 1, 2, 3, 7, 32, 33, 100, 1000. The inputs
 * are small whole numbers, so the sum is exact in any order.
 *
 *   make ex-8.13      grade this file (it prints the access picture)
 *   make hint-8.13    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/dot.cu: try first.
 */
#include "exercise.h"
#include "dot.h"

__global__ void dot(const float *a, const float *b, float *out, int n)
{
    /* TODO: 1. store your product a[i] * b[i] into shared memory, then __syncthreads()
     *       2. add the n products of s[] into s[0] (a tree: pairs at a time, a barrier after each step)
     *       3. one thread writes out[0]
     * Then delete the placeholder line below. */
    (void)a; (void)b; (void)out; (void)n;
}

void dot_launch(const float *d_a, const float *d_b, float *d_out, int n)
{
    dot<<<1, n, n * sizeof(float)>>>(d_a, d_b, d_out, n);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when dot is written */
}
