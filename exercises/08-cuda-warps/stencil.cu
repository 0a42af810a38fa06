/* exercises/08-cuda-warps/stencil.cu: exercise 8.3, a 2D stencil with a
 * shared tile and a halo.
 *
 * The task: the 5-point stencil (each output the sum of its input and the
 * four neighbours), with every block loading its part of the input into
 * shared memory once and reading the five values from there. Why it is a
 * lesson: a naive stencil loads every input 5 times from global memory,
 * once for each output that needs it. A block can instead load its tile
 * once, plus a one-element border (the halo) that belongs to neighbouring
 * tiles: a 16x16 tile with its halo is 324 loads for 256 outputs, about 1.3
 * per output instead of 5. The block has fewer threads than the tile has
 * cells; how to spread the loads is part of the exercise.
 *
 * The interface (stencil.h):
 *   __global__ void stencil(const float *in, float *out, int rows, int cols);
 *     - row-major rows x cols; out[r][c] = in[r][c] + in[r-1][c] +
 *       in[r+1][c] + in[r][c-1] + in[r][c+1], a neighbour outside the
 *       matrix counting as 0; one output per thread, blocks of
 *       blockDim.x x blockDim.y threads, any shape;
 *     - shared memory: (blockDim.x + 2) x (blockDim.y + 2) floats of DYNAMIC
 *       shared memory (extern __shared__, sized by the launch);
 *     - every thread reaches every barrier, also one whose output lies
 *       outside the matrix (a partial tile at the right or bottom edge).
 *   void stencil_launch(const float *d_in, float *d_out, int rows, int cols, int bx, int by);
 *     - device pointers; blocks of bx x by threads covering the matrix.
 *
 * What the checker tries (check_stencil.c), on the SIMT emulator: shapes
 * 1x1, 1x100, 37x53 and 100x67 (partial tiles on both edges) with blocks of
 * 16x16, 32x8 and 8x4; whole-number inputs, compared exactly. Then it counts
 * your global loads: at most 2 per output.
 *
 *   make ex-8.3      grade this file (each failure is explained)
 *   make hint-8.3    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/08-cuda-warps/stencil.cu: try first.
 */
#include "exercise.h"
#include "stencil.h"

__global__ void stencil(const float *in, float *out, int rows, int cols)
{
    /* TODO: the kernel. Then delete the placeholder line below. */
    (void)in; (void)out; (void)rows; (void)cols;
}

void stencil_launch(const float *d_in, float *d_out, int rows, int cols, int bx, int by)
{
    /* TODO: the launch. Then delete the placeholder lines below. */
    (void)d_in; (void)d_out; (void)rows; (void)cols; (void)bx; (void)by;
    PW_NOT_YET_IMPLEMENTED();
}
