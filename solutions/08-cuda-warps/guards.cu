/* solutions/08-cuda-warps/guards.cu: a solution of puzzle 8.7, guards.
 *
 * The launch is one block of n rounded up to whole warps (32 threads for
 * n = 5), so threads n .. 31 have no element. The guard i < n comes before
 * both the read and the write: a thread past the end touches nothing, and the
 * kernel makes n reads and n writes in all, whatever the rounding adds.
 * (i <= n would let thread n read a[n], one past the last element a[n - 1].)
 */
#include "exercise.h"
#include "guards.h"

__global__ void guards(const float *a, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n) out[i] = a[i] + 10.0f;
}

void guards_launch(const float *d_a, float *d_out, int n)
{
    guards<<<1, GUARDS_THREADS(n)>>>(d_a, d_out, n);
}
