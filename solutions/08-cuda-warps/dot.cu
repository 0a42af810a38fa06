/* solutions/08-cuda-warps/dot.cu: a solution of puzzle 8.13, dot.
 *
 * Each thread stores its product in s[i]. Then a tree: while `width`
 * products are left, the first width - half threads (half = ceil(width /
 * 2)) each add s[i + half] into s[i], and a barrier ends the step. With
 * n = 5: s0 += s3, s1 += s4 (width 5 -> 3); s0 += s2 (3 -> 2); s0 += s1
 * (2 -> 1). Rounding half up keeps the odd product out of a step (s2 at
 * width 5) for the next one, so any n works, not only powers of two; a
 * step reads s[half ...] and writes s[0 .. half - 1], so its threads never
 * touch each other's cells and one barrier per step is enough. log2(n)
 * steps (10 at n = 1000) where one thread adding the products one after
 * another takes n - 1. Then thread 0 writes the one result: 2 global reads
 * per thread, 1 global write in all.
 */
#include "exercise.h"
#include "dot.h"

__global__ void dot(const float *a, const float *b, float *out, int n)
{
    extern __shared__ float s[];                /* n floats: the launch's third argument */
    int i = threadIdx.x;                        /* exactly n threads: every i < n */
    s[i] = a[i] * b[i];                         /* the thread's 2 global reads */
    __syncthreads();
    for (int width = n; width > 1;) {
        int half = (width + 1) / 2;
        if (i < width - half) s[i] += s[i + half];
        __syncthreads();                        /* every thread, every step: outside the if */
        width = half;
    }
    if (i == 0) out[0] = s[0];                  /* the 1 global write */
}

void dot_launch(const float *d_a, const float *d_b, float *d_out, int n)
{
    dot<<<1, n, n * sizeof(float)>>>(d_a, d_b, d_out, n);
}
