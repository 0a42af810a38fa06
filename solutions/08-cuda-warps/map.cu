/* solutions/08-cuda-warps/map.cu: a solution of puzzle 8.5, map.
 *
 * The launch is one block of n threads, so threadIdx.x runs over 0 .. n-1:
 * it is the loop counter. No guard is needed because there are exactly n
 * threads (puzzle 8.7 takes that away). One read and one write per thread,
 * the least the job allows: n reads and n writes in all.
 */
#include "exercise.h"
#include "map.h"

__global__ void map(const float *a, float *out, int n)
{
    (void)n;                                    /* exactly n threads: nothing to guard */
    int i = threadIdx.x;
    out[i] = a[i] + 10.0f;
}

void map_launch(const float *d_a, float *d_out, int n)
{
    map<<<1, n>>>(d_a, d_out, n);
}
