/* tests/wrong/7.1-row-major-sliver.c: exercise 7.1 with A's sliver stored
 * row by row (the mr rows one after the other) instead of column by column:
 * every value is there, in the wrong order for the micro-kernel.
 * expect: FAIL: packed\[ */
#include "pack.h"

void ex_pack_a(int mc, int kc, const float *A, int lda, int mr, float *Ap)
{
    for (int s = 0; s * mr < mc; s++)
        for (int i = 0; i < mr; i++)
            for (int p = 0; p < kc; p++) {
                int row = s * mr + i;
                Ap[((long)s * kc) * mr + (long)i * kc + p] = row < mc ? A[(long)row * lda + p] : 0.0f;
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
