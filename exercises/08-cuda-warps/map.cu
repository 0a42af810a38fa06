/* exercises/08-cuda-warps/map.cu: GPU puzzle 8.5, map.
 *
 * The task: every thread adds 10 to one element, out[i] = a[i] + 10. The
 * launch is written for you: one block of exactly n threads. Why it is a
 * lesson: a kernel is the body of a loop whose loop counter is the thread's
 * index; the GPU runs all the bodies at once. Which element is "yours" is
 * the whole question.
 *
 * The budget: each thread makes at most 1 global read and 1 global write.
 *
 * What the checker tries (check_map.c), on the SIMT emulator: n = 8 with
 * the access picture (which thread touched which element, yours beside the
 * expected one), then n = 1, 5, 32, 1000. Every value is compared with the
 * CPU, and the emulator counts every thread's global reads and writes.
 *
 *   make ex-8.5      grade this file (it prints the access picture)
 *   make hint-8.5    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/map.cu: try first.
 */
#include "exercise.h"
#include "map.h"

__global__ void map(const float *a, float *out, int n)
{
    /* TODO: one line (and which element is this thread's?). Then delete the placeholder line below. */
    (void)a; (void)out; (void)n;
}

void map_launch(const float *d_a, float *d_out, int n)
{
    map<<<1, n>>>(d_a, d_out, n);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when map is written */
}
