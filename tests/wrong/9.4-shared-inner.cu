/* tests/wrong/9.4-shared-inner.cu: exercise 9.4 with the 8 x 8 outputs of
 * a thread, each computed as 9.1's kernel computes its one: a dot product
 * over the tile's p, straight from shared memory. The loops run i, j, p
 * (p innermost), so every FMA reads As[..][p] and Bs[p][..] again: 2
 * shared loads per FMA as written, with the reads of B 16 threads 8 floats
 * apart (4-way bank conflicts). Every product is right; modelled slower
 * than rung 3. Counted: gcc keeps a row's 8 values of A in registers
 * across j (1.12 loads and 4.27 wavefronts per FMA, 36.5 ms); clang keeps
 * none (2.00 and 6.02, 51.3 ms). With p outermost and the i, j loops
 * inside, gcc (tools/pwcc's build) kept both operands in registers by
 * itself, 0.25 loads per FMA: the register tile written by the compiler,
 * which this order defeats.
 * expect: FAIL: modelled at .* of rung 5's advantage
 * hint: reads its operands from shared memory FMA by FMA */
#include "reg_tile.h"

#define BM 128   /* the block's tile of C: BM rows x BN columns */
#define BN 128
#define BK 8     /* the k step: A's tile is BM x BK, B's BK x BN, both in shared memory */
#define TM 8     /* one thread's outputs: TM rows x TN columns of C */
#define TN 8
#define THREADS ((BM / TM) * (BN / TN))

__global__ void reg_tile(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float As[BM * BK];   /* As[r * BK + p]: row r of the block's rows of A, column t + p */
    __shared__ float Bs[BK * BN];   /* Bs[p * BN + c]: row t + p of B, column c of the block's columns */
    int tid = threadIdx.x;
    int tr = tid / (BN / TN), tc = tid % (BN / TN);   /* this thread's outputs: rows tr*TM.., columns tc*TN.. */
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN];
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) acc[i][j] = 0.0f;
    for (int t = 0; t < k; t += BK) {   /* the last step may be partial: k % BK columns, the rest zeros */
        for (int e = tid; e < BM * BK; e += THREADS) {
            int r = e / BK, p = e % BK;   /* a warp: 4 rows of 8 consecutive floats */
            As[e] = row0 + r < m && t + p < k ? A[(size_t)(row0 + r) * k + t + p] : 0.0f;
        }
        for (int e = tid; e < BK * BN; e += THREADS) {
            int p = e / BN, c = e % BN;   /* a warp: 32 consecutive floats of a row */
            Bs[e] = t + p < k && col0 + c < n ? B[(size_t)(t + p) * n + col0 + c] : 0.0f;
        }
        __syncthreads();
        for (int i = 0; i < TM; i++)
            for (int j = 0; j < TN; j++)
                for (int p = 0; p < BK; p++) acc[i][j] += As[(tr * TM + i) * BK + p] * Bs[p * BN + tc * TN + j];
        __syncthreads();
    }
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) {
            int row = row0 + tr * TM + i, col = col0 + tc * TN + j;
            if (row < m && col < n) C[(size_t)row * n + col] = acc[i][j];
        }
}

void reg_tile_launch(const float *dA, const float *dB, float *dC, int m, int n, int k)
{
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    reg_tile<<<grid, THREADS>>>(dA, dB, dC, m, n, k);
}

reg_tile_shape reg_tile_tiles(void)
{
    reg_tile_shape s = { BM, BN, BK, TM, TN };
    return s;
}
