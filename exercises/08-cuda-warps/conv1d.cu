/* exercises/08-cuda-warps/conv1d.cu: GPU puzzle 8.14, conv1d.
 *
 * The task: out[i] = sum over j < k of a[i + j] b[j], terms past the end of
 * a being 0. The launch is written for you: ceil(n / B) blocks of B
 * threads, one output per thread, and B + 2k - 1 floats of dynamic shared
 * memory per block (extern __shared__ float s[];), k at most B.
 *
 * Why it is a lesson: each element of a is used by k outputs and each
 * weight by all of them. A block loads what its outputs need once: its B
 * elements of a (the tile), the k - 1 elements after the tile (the halo,
 * which belong to the next block's tile and are loaded by both), and the k
 * weights; then every sum reads shared memory only. The last block is
 * usually partial (n is not a multiple of B), and the halo of a block near
 * the end runs past a[n - 1]: load 0 there, never past the end.
 *
 * The budget: each thread at most 3 global reads (its element of the tile,
 * at most one of the halo, at most one weight) and 1 global write. A kernel
 * that reads a[i + j] and b[j] from global memory makes 2k reads.
 *
 * What the checker tries (check_conv1d.c), on the SIMT emulator: n = 12,
 * k = 3 in blocks of 8 with the access picture (which thread touched which
 * element of a, b, out and the shared array s), then (n, k, B) = (1, 1, 8),
 * (5, 3, 8), (7, 8, 8), (8, 8, 8), (30, 5, 8), (100, 7, 32), (200, 32, 32),
 * (1000, 16, 32), (1001, 1, 64), (300, 64, 64). Exact: small whole numbers.
 *
 *   make ex-8.14      grade this file (it prints the access picture)
 *   make hint-8.14    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/conv1d.cu: try first.
 */
#include "exercise.h"
#include "conv1d.h"

__global__ void conv1d(const float *a, const float *b, float *out, int n, int k)
{
    /* TODO: 1. s[0 .. B + k - 2]: the tile and its halo (0 past the end of a);
     *          s[B + k - 1 ...]: the k weights
     *       2. __syncthreads()
     *       3. each thread with i < n adds its k products from shared memory and stores out[i]
     * Then delete the placeholder line below. */
    (void)a; (void)b; (void)out; (void)n; (void)k;
}

void conv1d_launch(const float *d_a, const float *d_b, float *d_out, int n, int k, int block)
{
    int blocks = (n + block - 1) / block;
    conv1d<<<blocks, block, (block + 2 * k - 1) * sizeof(float)>>>(d_a, d_b, d_out, n, k);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when conv1d is written */
}
