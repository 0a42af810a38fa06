/* solutions/08-cuda-warps/prefix_sum.cu: a solution of puzzle 8.15, prefix sum.
 *
 * A scan in log2(B) steps (Hillis and Steele's) with two buffers. At the
 * step with distance d every thread reads `from` (its own cell and the one
 * d to its left) and writes only its own cell of `to`; a barrier; the
 * buffers swap. So no cell is written in the step that reads it, and one
 * barrier per step suffices: the one that ends a step also orders the next
 * step's writes after this step's reads. With one buffer, s[t] += s[t - d]
 * in a step races with thread t - d's own += (racecheck names both lines).
 * B = 8: 3 steps; each thread makes 2 shared reads a step, 7 in all with
 * the final read, where adding its prefix one element at a time takes up
 * to 8 (and 256 at B = 256, against 17 here). B log2(B) additions in all
 * against B - 1 for the serial scan: more work, done in fewer steps.
 */
#include "exercise.h"
#include "prefix_sum.h"

__global__ void prefix_sum(const float *a, float *out, int n)
{
    extern __shared__ float s[];                /* 2B floats: two buffers of B */
    int B = blockDim.x, t = threadIdx.x, i = blockIdx.x * B + t;
    float *from = s, *to = s + B;
    from[t] = i < n ? a[i] : 0.0f;              /* the one global read; the partial block's rest is 0 */
    __syncthreads();
    for (int d = 1; d < B; d *= 2) {
        to[t] = t >= d ? from[t] + from[t - d] : from[t];
        __syncthreads();                        /* this step's writes before the next step's reads */
        float *swap = from;
        from = to;
        to = swap;
    }
    if (i < n) out[i] = from[t];                /* the one global write */
}

void prefix_sum_launch(const float *d_a, float *d_out, int n, int block)
{
    int blocks = (n + block - 1) / block;
    prefix_sum<<<blocks, block, 2 * block * sizeof(float)>>>(d_a, d_out, n);
}
