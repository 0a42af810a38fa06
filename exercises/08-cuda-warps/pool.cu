/* exercises/08-cuda-warps/pool.cu: GPU puzzle 8.12, pool.
 *
 * The task: out[i] = a[i - 2] + a[i - 1] + a[i], the sum of a window of 3
 * elements that ends at i; the terms before a[0] are 0. The launch is
 * written for you: one block of exactly n threads, with n floats of
 * dynamic shared memory (extern __shared__ float s[];).
 *
 * Why it is a lesson: every element is wanted by three threads. Reading it
 * from global memory three times costs three trips to DRAM; reading it once
 * into shared memory, waiting for the whole block (__syncthreads()), then
 * reading the neighbours from there costs one. The barrier is what makes
 * the neighbour's value be there when you read it.
 *
 * The budget: each thread makes at most 1 global read and 1 global write
 * (the emulator counts them). A kernel that reads a[i - 2], a[i - 1] and
 * a[i] from global memory gives the right values and fails it.
 *
 * What the checker tries (check_pool.c), on the SIMT emulator: n = 8 with
 * the access picture (which thread touched which element of a, out and the
 * shared array s, yours beside the expected one), then n = 1, 2, 3, 5, 32,
 * 33, 1000. Values are compared exactly with the CPU; racecheck and
 * initcheck look at every shared-memory access.
 *
 *   make ex-8.12      grade this file (it prints the access picture)
 *   make hint-8.12    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/pool.cu: try first.
 */
#include "exercise.h"
#include "pool.h"

__global__ void pool(const float *a, float *out, int n)
{
    /* TODO: 1. copy your element of a into shared memory (extern __shared__ float s[];)
     *       2. wait until every thread of the block has done so
     *       3. add your window from shared memory (the terms before s[0] are 0) and store it
     * Then delete the placeholder line below. */
    (void)a; (void)out; (void)n;
}

void pool_launch(const float *d_a, float *d_out, int n)
{
    pool<<<1, n, n * sizeof(float)>>>(d_a, d_out, n);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when pool is written */
}
