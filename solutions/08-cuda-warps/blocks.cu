/* solutions/08-cuda-warps/blocks.cu: a solution of puzzle 8.10, blocks.
 *
 * Thread t of block b has element b * blockDim.x + t: the blocks before it
 * hold b * blockDim.x elements. The grid is ceil(n / block) blocks, written
 * in whole numbers as (n + block - 1) / block: 9 elements in blocks of 4
 * are 3 blocks (n / block = 2 would leave element 8 without a thread), and 8
 * in blocks of 4 are 2 (n / block + 1 = 3 would launch a block with nothing
 * to do). The last block's spare threads fail the guard and touch nothing:
 * 1 read and 1 write per element, n of each in all.
 */
#include "exercise.h"
#include "blocks.h"

__global__ void blocks(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + 10.0f;
}

void blocks_launch(const float *d_a, float *d_out, int n, int block)
{
    int grid = (n + block - 1) / block;
    blocks<<<grid, block>>>(d_a, d_out, n);
}
