/* exercises/08-cuda-warps/stencil.cu: exercise 8.3, a 2D stencil with a
 * shared tile and a halo.
 *
 * What it teaches: a naive stencil loads every input 5 times (once for each
 * output that needs it). A block can instead load its tile once into shared
 * memory, plus a one-element border (the halo) that belongs to neighbouring
 * tiles, and read the 5 values from there. The checker counts your global
 * loads: at most 2 per output (a 16x16 tile with its halo is 324 loads for
 * 256 outputs), where the naive kernel needs 5.
 *
 * Write stencil() and stencil_launch() (declared in stencil.h). The checker
 * runs them on the SIMT emulator on odd shapes (1x1, 1x100, 37x53, 100x67)
 * with blocks of 16x16, 32x8 and 8x4, and compares with the CPU exactly.
 *
 * Check your work: make ex-8.3. The answer: solutions/08-cuda-warps/stencil.cu.
 */
#include "exercise.h"
#include "stencil.h"

__global__ void stencil(const float *in, float *out, int rows, int cols)
{
    extern __shared__ float tile[];   /* (blockDim.x + 2) x (blockDim.y + 2) floats */
    /* TODO:
     *  1. This thread's element: c = blockIdx.x * blockDim.x + threadIdx.x,
     *     r = blockIdx.y * blockDim.y + threadIdx.y. Its place in the tile:
     *     tile[(threadIdx.y + 1) * W + threadIdx.x + 1], with W = blockDim.x + 2.
     *  2. Fill the whole tile, halo included: loop over the tile's cells k =
     *     t, t + blockDim.x*blockDim.y, ... (t = threadIdx.y * blockDim.x +
     *     threadIdx.x) up to W * (blockDim.y + 2). Cell k is tile row k / W,
     *     column k % W, which is matrix element (blockIdx.y * blockDim.y + k/W - 1,
     *     blockIdx.x * blockDim.x + k%W - 1): load it if inside the matrix, else 0.
     *  3. __syncthreads(), reached by every thread (no early return).
     *  4. If (r, c) is inside the matrix: out[r * cols + c] = the sum of the
     *     five tile values around this thread's place.
     * Then delete the line below. */
    (void)tile; (void)in; (void)out; (void)rows; (void)cols;
}

void stencil_launch(const float *d_in, float *d_out, int rows, int cols, int bx, int by)
{
    /* TODO: a grid of ceil(cols / bx) x ceil(rows / by) blocks of dim3(bx, by),
     * (bx + 2) * (by + 2) floats of shared memory:
     *   stencil<<<grid, block, shared_bytes>>>(d_in, d_out, rows, cols);
     * Then delete the lines below. */
    (void)d_in; (void)d_out; (void)rows; (void)cols; (void)bx; (void)by;
    PW_NOT_YET_IMPLEMENTED();
}
