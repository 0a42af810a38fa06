/* exercises/08-cuda-warps/coalesce.cu: GPU puzzle 8.18, coalesce (about
 * performance: the kernel below is already right).
 *
 * The task: copy a rows x cols matrix of floats. The kernel given copies it
 * correctly: thread r owns row r and walks along it, one column a step. But
 * look at one step of one warp: its 32 lanes are on 32 different rows, cols
 * floats apart, so one warp request touches 32 different 32-byte sectors
 * to use 4 bytes of each (1/8 of what the memory moves). Rewrite the kernel
 * so that in every request consecutive lanes touch consecutive floats: 32
 * lanes x 4 bytes = 128 bytes = 4 sectors. The launch stays as given (the
 * same threads, each still copying about cols elements): only which element
 * each thread copies in each step changes. Predict first: how many sectors
 * per request does the given kernel make on a 37 x 53 matrix?
 *
 * The budget, counted by the emulator on every size below (loads and stores
 * apart): each element read once and written once; at most 4 sectors per
 * warp request, the ideal; and full requests: at most ceil(n / 32) + one
 * partial request per warp (n = rows x cols).
 *
 * What the checker tries (check_coalesce.c), on the SIMT emulator: 32 x 8
 * with the picture of warp 0's first load and first store (which lane
 * touched which element, row by row as the matrix lies in memory), then
 * 1 x 1, 1 x 100, 100 x 1, 37 x 53, 300 x 7, 129 x 33, 517 x 41. Every value
 * is compared exactly, and the counts are printed beside the given kernel's.
 *
 *   make ex-8.18      grade this file (it prints the picture)
 *   make hint-8.18    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/coalesce.cu: try first.
 */
#include "exercise.h"
#include "coalesce.h"

__global__ void coalesce(const float *in, float *out, int rows, int cols)
{
    /* TODO: the given kernel, right but uncoalesced: rewrite it so that the
     * 32 lanes of a warp copy 32 neighbouring floats in the same step. */
    int r = blockIdx.x * blockDim.x + threadIdx.x;     /* this thread's row */
    if (r >= rows) return;
    for (int c = 0; c < cols; c++) out[(long long)r * cols + c] = in[(long long)r * cols + c];
}

void coalesce_launch(const float *d_in, float *d_out, int rows, int cols)
{
    coalesce<<<(rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK, COALESCE_BLOCK>>>(d_in, d_out, rows, cols);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when coalesce is rewritten */
}
