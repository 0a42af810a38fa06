/* solutions/08-cuda-warps/matmul.cu: a solution of puzzle 8.17, matmul.
 *
 * Tiles along k. At each of the ceil(n / T) steps thread (x, y) loads
 * A[row][k0 + x] into ta[y][x] and B[k0 + y][col] into tb[y][x] (0 when
 * outside the matrix: the edge tiles of an n that is not a multiple of T),
 * so the block's T T threads fill both tiles with one load each. After a
 * barrier each thread adds ta[y][k] tb[k][x] over k < T; the zeros make
 * the edge tiles add nothing, so no test is needed in the inner loop. The
 * second barrier keeps a fast thread from overwriting ta and tb for the
 * next step while a slow one still reads them (racecheck reports its
 * absence as a write-after-read hazard). Global reads per thread: 2
 * ceil(n / T), 4 at n = 3, T = 2 and 8 at n = 64, T = 16, where the naive
 * kernel makes 2n: 6 and 128. Threads past the edge still load (0) and
 * meet both barriers; only the store is guarded.
 */
#include "exercise.h"
#include "matmul.h"

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    extern __shared__ float s[];                /* 2 T T floats: A's tile, then B's */
    int T = blockDim.x, x = threadIdx.x, y = threadIdx.y;
    float *ta = s, *tb = s + T * T;             /* ta[y][x] is ta[y * T + x] */
    int row = blockIdx.y * T + y, col = blockIdx.x * T + x;
    float sum = 0.0f;
    for (int k0 = 0; k0 < n; k0 += T) {
        int ak = k0 + x, bk = k0 + y;           /* the column of A and the row of B this thread loads */
        ta[y * T + x] = row < n && ak < n ? A[row * n + ak] : 0.0f;
        tb[y * T + x] = bk < n && col < n ? B[bk * n + col] : 0.0f;
        __syncthreads();                        /* both tiles loaded */
        for (int k = 0; k < T; k++) sum += ta[y * T + k] * tb[k * T + x];
        __syncthreads();                        /* both tiles read, before the next step overwrites them */
    }
    if (row < n && col < n) C[row * n + col] = sum;
}

void matmul_launch(const float *d_A, const float *d_B, float *d_C, int n, int tile)
{
    int tiles = (n + tile - 1) / tile;
    matmul<<<dim3(tiles, tiles), dim3(tile, tile), 2 * tile * tile * sizeof(float)>>>(d_A, d_B, d_C, n);
}
