/* solutions/08-cuda-warps/shared.cu: a solution of puzzle 8.11, shared.
 *
 * Each thread loads its one element (1 global read: the budget) into a
 * register and into its slot of the block's shared array; a thread past
 * the end loads nothing and stores 0, which is what a missing partner
 * counts as. The barrier comes after every store and before any thread
 * reads another's slot: all 8 threads reach it (no return before it). Then
 * the thread adds its register to its partner's slot, t ^ 1: partners are
 * 2k and 2k + 1, and a block of 8 starts at a multiple of 8, so i ^ 1 and
 * t ^ 1 name the same element. 1 global read and 1 write per element, n of
 * each in all; per block 8 shared stores and up to 8 shared loads.
 */
#include "exercise.h"
#include "shared.h"

__global__ void shared_pairs(const float *a, float *out, int n)
{
    __shared__ float s[SHARED_TPB];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    float mine = i < n ? a[i] : 0.0f;
    s[t] = mine;
    __syncthreads();                  /* every slot stored before any partner reads it */
    if (i < n) out[i] = mine + s[t ^ 1];
}

void shared_launch(const float *d_a, float *d_out, int n)
{
    shared_pairs<<<(n + SHARED_TPB - 1) / SHARED_TPB, SHARED_TPB>>>(d_a, d_out, n);
}
