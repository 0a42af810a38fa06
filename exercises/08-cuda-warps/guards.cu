/* exercises/08-cuda-warps/guards.cu: GPU puzzle 8.7, guards.
 *
 * The task: out[i] = a[i] + 10 again, but the launch now has more threads
 * than elements. A GPU runs threads in warps of 32, so a launch is usually
 * rounded up to whole warps (or whole blocks): for n = 5 the given launch is
 * one block of 32 threads, and 27 of them have no element. Those threads
 * must do nothing at all: not write, and not read either (a read past the
 * end of an array is as much a bug as a write: on a GPU it can fault, and it
 * reads someone else's memory).
 *
 * The budget: each thread makes at most 1 global read and 1 global write;
 * in all, n reads and n writes (a thread with no element makes none).
 *
 * What the checker tries (check_guards.c), on the SIMT emulator: n = 5 with
 * the access picture, then n = 1, 31, 32, 33, 97, 1000 (the launch is 32,
 * 32, 32, 64, 128 and 1024 threads). The arrays are allocated with exactly
 * n elements, so the emulator stops a kernel that touches a[n] (memcheck);
 * the checker then runs it once more on longer arrays to see which threads
 * ran off the end, and says whether the guard is missing, one off, or comes
 * after the read.
 *
 *   make ex-8.7      grade this file (it prints the access picture)
 *   make hint-8.7    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/guards.cu: try first.
 */
#include "exercise.h"
#include "guards.h"

__global__ void guards(const float *a, float *out, int n)
{
    /* TODO: 8.5's line, for the threads that have an element only. Then delete the placeholder line below. */
    (void)a; (void)out; (void)n;
}

void guards_launch(const float *d_a, float *d_out, int n)
{
    guards<<<1, GUARDS_THREADS(n)>>>(d_a, d_out, n);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when guards is written */
}
