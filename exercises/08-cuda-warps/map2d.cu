/* exercises/08-cuda-warps/map2d.cu: GPU puzzle 8.8, map2d.
 *
 * The task: out(r, c) = a(r, c) + 10 over a rows x cols matrix stored row by
 * row (element (r, c) is a[r * cols + c]), with one 2D block of bx x by
 * threads that covers the matrix with threads to spare in both directions:
 * for the 2 x 5 matrix of the picture, a block of 6 x 3 = 18 threads, 8 of
 * them with no cell. Why it is a lesson: a block has two indices,
 * threadIdx.x and threadIdx.y. Which of them is the column? (x runs along a
 * row, as the elements do in memory: blockDim.x >= cols.) And the guard now
 * has two sides.
 *
 * The budget: each thread makes at most 1 global read and 1 global write;
 * rows x cols of each in all (a thread with no cell touches nothing).
 *
 * What the checker tries (check_map2d.c), on the SIMT emulator: 2 x 5 in a
 * 6 x 3 block with the access picture, then 1 x 1 in 4 x 4, 5 x 2 in 3 x 6
 * (the picture's shape turned over), 7 x 7 in 8 x 8, 3 x 30 in 32 x 4,
 * 30 x 3 in 4 x 32 and 31 x 31 in 32 x 32 (rows x cols, then bx x by). The
 * matrices are allocated with exactly rows x cols elements, so the emulator
 * stops a kernel that runs off the end; the checker then runs it on longer
 * arrays and says which threads ran off, and which side of the guard is
 * missing.
 *
 *   make ex-8.8      grade this file (it prints the access picture)
 *   make hint-8.8    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/map2d.cu: try first.
 */
#include "exercise.h"
#include "map2d.h"

__global__ void map2d(const float *a, float *out, int rows, int cols)
{
    /* TODO: this thread's row and column, a guard on both, then 8.5's line at element r * cols + c.
     * Then delete the placeholder line below. */
    (void)a; (void)out; (void)rows; (void)cols;
}

void map2d_launch(const float *d_a, float *d_out, int rows, int cols, int bx, int by)
{
    map2d<<<1, dim3(bx, by)>>>(d_a, d_out, rows, cols);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when map2d is written */
}
