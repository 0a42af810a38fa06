/* exercises/08-cuda-warps/zip.cu: GPU puzzle 8.6, zip.
 *
 * The task: out[i] = a[i] + b[i], two arrays in, one out, zipped element by
 * element. The launch is written for you: one block of exactly n threads.
 * Why it is a lesson: the loop counter (the thread's index) picks the same
 * element of every array; a kernel may read as many arrays as it needs,
 * but each thread touches only its own column of them.
 *
 * The budget: each thread makes at most 2 global reads (a[i], b[i]) and 1
 * global write (out[i]). Building the sum in out[i] (out[i] = a[i]; then
 * out[i] += b[i]) stores out[i] twice: over the budget.
 *
 * What the checker tries (check_zip.c), on the SIMT emulator: n = 8 with
 * the access picture (which thread touched which element, yours beside the
 * expected one), then n = 1, 5, 31, 97, 1024 (the largest block). Every
 * value is compared with the CPU, and the emulator counts every thread's
 * global reads and writes.
 *
 *   make ex-8.6      grade this file (it prints the access picture)
 *   make hint-8.6    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/zip.cu: try first.
 */
#include "exercise.h"
#include "zip.h"

__global__ void zip(const float *a, const float *b, float *out, int n)
{
    /* TODO: one line, as in 8.5 but with two arrays in. Then delete the placeholder line below. */
    (void)a; (void)b; (void)out; (void)n;
}

void zip_launch(const float *d_a, const float *d_b, float *d_out, int n)
{
    zip<<<1, n>>>(d_a, d_b, d_out, n);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when zip is written */
}
