/* solutions/08-cuda-warps/coalesce.cu: a solution of puzzle 8.18, coalesce.
 *
 * The matrix is one array of n = rows x cols floats in memory; a copy does
 * not care where its rows end. So forget rows: thread t of the T launched
 * (T = gridDim.x x blockDim.x, the rows rounded up to whole blocks of 128)
 * copies elements t, t + T, t + 2T, ... In one step the 32 lanes of a warp
 * copy 32 neighbouring floats, and since T is a multiple of 128 and every
 * warp starts at a multiple of 32 threads, each step's run starts on a
 * multiple of 32 floats (128 bytes): exactly 4 sectors a full request, the
 * ideal, and ceil(n / 32) requests in all. Each thread still copies about
 * cols elements (n / T <= cols, since T >= rows): the same work, shared out
 * across the warp instead of along a row.
 *
 * What the given kernel did instead: lane r walked row r, so one step's 32
 * lanes were cols floats apart, 32 sectors for 128 useful bytes: 8 times
 * the traffic (18.50 sectors a request on 37 x 53, whose second warp has
 * only 5 rows).
 */
#include "exercise.h"
#include "coalesce.h"

__global__ void coalesce(const float *in, float *out, int rows, int cols)
{
    long long n = (long long)rows * cols;
    long long threads = (long long)gridDim.x * blockDim.x;         /* T: the stride between one thread's elements */
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += threads)
        out[i] = in[i];                                             /* lanes l and l + 1: neighbours */
}

void coalesce_launch(const float *d_in, float *d_out, int rows, int cols)
{
    coalesce<<<(rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK, COALESCE_BLOCK>>>(d_in, d_out, rows, cols);
}
