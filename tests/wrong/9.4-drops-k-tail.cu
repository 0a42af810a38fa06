/* tests/wrong/9.4-drops-k-tail.cu: exercise 9.4 that steps k only while a
 * whole BK step fits (t + BK <= k): the last k % BK products of every output
 * are never added. Wrong wherever BK does not divide k: 17 x 33 x 9 drops
 * one of its 9.
 * expect: FAIL: C\[[0-9]+\]\[[0-9]+\] = .* 17 x 33 x 9
 * hint: was skipped */
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
    float a[TM], b[TN];
    for (int t = 0; t + BK <= k; t += BK) {   /* whole steps only */
        for (int e = tid; e < BM * BK; e += THREADS) {
            int r = e / BK, p = e % BK;   /* a warp: 4 rows of 8 consecutive floats */
            As[e] = row0 + r < m && t + p < k ? A[(size_t)(row0 + r) * k + t + p] : 0.0f;
        }
        for (int e = tid; e < BK * BN; e += THREADS) {
            int p = e / BN, c = e % BN;   /* a warp: 32 consecutive floats of a row */
            Bs[e] = t + p < k && col0 + c < n ? B[(size_t)(t + p) * n + col0 + c] : 0.0f;
        }
        __syncthreads();
        for (int p = 0; p < BK; p++) {
            for (int i = 0; i < TM; i++) a[i] = As[(tr * TM + i) * BK + p];
            for (int j = 0; j < TN; j++) b[j] = Bs[p * BN + tc * TN + j];
            for (int i = 0; i < TM; i++)
                for (int j = 0; j < TN; j++) acc[i][j] += a[i] * b[j];
        }
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
