/* tests/wrong/9.4-row-of-eight.cu: exercise 9.4 with 1D tiles along a row:
 * 64 x 64 x 8 tiles, TM x TN = 1 x 8, 512 threads. Every product is right.
 * Does 1D tiling pass the bar? The model says this one does not: modelled
 * slower than rung 3. Its value of A serves 8 FMAs, but each of its 8
 * values of B only one: (1 + 8) / 8 = 1.125 shared loads per FMA; and a
 * warp's 8 threads of a row read B 8 floats apart (8 addresses on 4 banks:
 * 2-way conflicts), 2.16 wavefronts per warp FMA against rung 3's 2.06.
 * (The other 1D tile, 8 x 1, a column of 8 a thread, is the ladder's
 * rung 4: its 8 reads of A are broadcasts and its read of B is 32
 * consecutive floats, 1.16 wavefronts per warp FMA; it wins 66% of rung
 * 5's advantage and passes the 60% bar: not a wrong answer.)
 * expect: FAIL: modelled at .* of rung 5's advantage
 * hint: 1 x 8 is a 1D tile */
#include "reg_tile.h"

#define BM 64    /* the block's tile of C: BM rows x BN columns */
#define BN 64
#define BK 8     /* the k step: A's tile is BM x BK, B's BK x BN, both in shared memory */
#define TM 1     /* one thread's outputs: TM rows x TN columns of C */
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
