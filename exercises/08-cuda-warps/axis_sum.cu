/* exercises/08-cuda-warps/axis_sum.cu: GPU puzzle 8.16, axis sum.
 *
 * The task: out[r] = the sum of row r of a rows x cols matrix (row-major:
 * a[r][c] is a[r * cols + c]). The launch is written for you: a grid of
 * 1 x rows blocks, so block (0, r) has row r and blockIdx.y is the row;
 * B threads per block, B the smallest power of two >= cols, thread c on
 * column c; B floats of dynamic shared memory (extern __shared__ float s[];).
 * Threads c >= cols have no element: they count as 0.
 *
 * Why it is a lesson: a reduction along one axis of a 2D array (the sums
 * behind a softmax or a layer norm, one row each) is many independent
 * reductions, one per block; the grid's second dimension numbers them.
 * Inside a block it is 8.13's tree, on a power of two (B), so the halving
 * is exact: every thread loads its element (or 0), then log2(B) steps.
 *
 * The budget: each thread 1 global read and at most 1 global write, rows
 * writes in all (one per row, when its sum is complete), and at most
 * 3 log2(B) + 2 shared-memory reads per thread: a tree reads 2 a step,
 * thread 0 adding the row from shared memory one element at a time reads
 * cols (33 at cols = 33, B = 64, against 20 allowed).
 *
 * What the checker tries (check_axis_sum.c), on the SIMT emulator: 3 x 5
 * (blocks of 8) with the access picture (which thread touched which
 * element of a, out and the shared array s), then rows x cols = 1 x 1,
 * 1 x 7, 5 x 1, 7 x 33, 4 x 100, 9 x 200, 2 x 700. Exact: small whole
 * numbers.
 *
 *   make ex-8.16      grade this file (it prints the access picture)
 *   make hint-8.16    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/axis_sum.cu: try first.
 */
#include "exercise.h"
#include "axis_sum.h"

__global__ void axis_sum(const float *a, float *out, int rows, int cols)
{
    /* TODO: 1. which row is this block's, which column this thread's? Load a[row][col]
     *          into shared memory (0 for col >= cols), __syncthreads()
     *       2. a tree: halve the active threads each step, a barrier after each
     *       3. one thread writes out[row]
     * Then delete the placeholder line below. */
    (void)a; (void)out; (void)rows; (void)cols;
}

void axis_sum_launch(const float *d_a, float *d_out, int rows, int cols)
{
    int block = axis_sum_block(cols);
    axis_sum<<<dim3(1, rows), block, block * sizeof(float)>>>(d_a, d_out, rows, cols);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when axis_sum is written */
}
