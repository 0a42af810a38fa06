/* solutions/08-cuda-warps/axis_sum.cu: a solution of puzzle 8.16, axis sum.
 *
 * Block (0, r) sums row r: blockIdx.y is the row (blockIdx.x is 0 in every
 * block of a 1 x rows grid, so a kernel that takes the row from it sums
 * row 0 rows times). Thread c loads a[r][c], or 0 past the last column, so
 * the block's B cells are a power of two and each step halves exactly: the
 * threads c < half add s[c + half] into s[c], then a barrier. At cols = 5,
 * B = 8: 3 steps (8 -> 4 -> 2 -> 1), thread 0 reading 2 cells a step and
 * s[0] at the end, 7 shared reads where adding the row one element at a
 * time takes 5 (and 700 at cols = 700 against 21). Thread 0 writes the
 * row's sum: rows writes in all.
 */
#include "exercise.h"
#include "axis_sum.h"

__global__ void axis_sum(const float *a, float *out, int rows, int cols)
{
    extern __shared__ float s[];                /* B floats, B a power of two >= cols */
    (void)rows;                                 /* exactly rows blocks: every row < rows */
    int row = blockIdx.y, c = threadIdx.x;
    s[c] = c < cols ? a[row * cols + c] : 0.0f; /* the one global read; past the row: 0 */
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (c < half) s[c] += s[c + half];
        __syncthreads();                        /* outside the if: every thread meets it */
    }
    if (c == 0) out[row] = s[0];
}

void axis_sum_launch(const float *d_a, float *d_out, int rows, int cols)
{
    int block = axis_sum_block(cols);
    axis_sum<<<dim3(1, rows), block, block * sizeof(float)>>>(d_a, d_out, rows, cols);
}
