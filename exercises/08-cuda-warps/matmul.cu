/* exercises/08-cuda-warps/matmul.cu: GPU puzzle 8.17, matmul.
 *
 * The task: C = A B, n x n, row-major. The launch is written for you:
 * T x T threads per block on a ceil(n / T) x ceil(n / T) grid, thread
 * (x, y) of block (bx, by) on C[by T + y][bx T + x], and 2 T T floats of
 * dynamic shared memory per block (extern __shared__ float s[];). n is not
 * a multiple of T in most sizes: the threads past the edge have no output,
 * and the tiles past the edge are filled with 0.
 *
 * Why it is a lesson: C[r][c] needs row r of A and column c of B, 2n
 * elements, and every element of A is wanted by the n threads of a row of
 * C. Read from global memory, that is 2n reads per thread. In tiles: the
 * block walks along k in steps of T; at each step every thread loads ONE
 * element of A's T x T tile and ONE of B's into shared memory, a barrier,
 * then every thread adds its T products from shared memory, and a second
 * barrier before the next tiles overwrite these. 2 ceil(n / T) global
 * reads per thread: T times fewer. It is chapter 09's shared-memory rung.
 *
 * The budget: each thread at most 2 ceil(n / T) global reads and 1 global
 * write (at n = 3, T = 2: 4 reads, where the naive kernel makes 6).
 *
 * What the checker tries (check_matmul.c), on the SIMT emulator: n = 3 in
 * 2 x 2 tiles with the access picture (which thread touched which element
 * of A, B, C and the shared array s), then (n, T) = (1, 4), (4, 4), (5, 4),
 * (7, 4), (17, 8), (31, 8), (33, 16), (64, 16). Exact: small whole numbers.
 *
 *   make ex-8.17      grade this file (it prints the access picture)
 *   make hint-8.17    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/matmul.cu: try first.
 */
#include "exercise.h"
#include "matmul.h"

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    /* TODO: row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x; then for
     * each tile along k (k0 = 0, T, 2T, ... < n):
     *   1. load A[row][k0 + x] and B[k0 + y][col] (0 past the edge) into the two tiles of s
     *   2. __syncthreads()
     *   3. add the T products of your row of A's tile and your column of B's tile
     *   4. __syncthreads() again, before the next tiles are loaded
     * and store C[row][col] if it is inside. Then delete the placeholder line below. */
    (void)A; (void)B; (void)C; (void)n;
}

void matmul_launch(const float *d_A, const float *d_B, float *d_C, int n, int tile)
{
    int tiles = (n + tile - 1) / tile;
    matmul<<<dim3(tiles, tiles), dim3(tile, tile), 2 * tile * tile * sizeof(float)>>>(d_A, d_B, d_C, n);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when matmul is written */
}
