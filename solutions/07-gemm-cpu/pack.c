/* solutions/07-gemm-cpu/pack.c: exercise 7.1 solved: the packing routines of
 * the GEMM micro-kernel. What changed from the skeleton: the two loop nests.
 *
 * A is read column by column within a sliver: the writes are contiguous
 * and the mr rows being read stay in L1 for 16 columns (one cache line of
 * each). B is read row by row: each row of the block once, contiguously,
 * scattered into the slivers. Padding is written explicitly: the buffer is
 * reused from block to block, so what was there is garbage, not zeros.
 */
#include "pack.h"

void ex_pack_a(int mc, int kc, const float *A, int lda, int mr, float *Ap)
{
    for (int s = 0; s * mr < mc; s++)
        for (int p = 0; p < kc; p++)
            for (int i = 0; i < mr; i++) {
                int row = s * mr + i;
                Ap[((long)s * kc + p) * mr + i] = row < mc ? A[(long)row * lda + p] : 0.0f;
            }
}

void ex_pack_b(int kc, int nc, const float *B, int ldb, int nr, float *Bp)
{
    for (int p = 0; p < kc; p++)
        for (int s = 0; s * nr < nc; s++)
            for (int j = 0; j < nr; j++) {
                int col = s * nr + j;
                Bp[((long)s * kc + p) * nr + j] = col < nc ? B[(long)p * ldb + col] : 0.0f;
            }
}
