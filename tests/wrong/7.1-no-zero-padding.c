/* tests/wrong/7.1-no-zero-padding.c: exercise 7.1 with the edge slivers
 * left unpadded: right where the block is a whole number of slivers, and
 * garbage (whatever the buffer held) past the edge otherwise.
 * expect: FAIL: packed\[
 * hint: padding past the edge must be zeros */
#include "pack.h"

void ex_pack_a(int mc, int kc, const float *A, int lda, int mr, float *Ap)
{
    for (int s = 0; s * mr < mc; s++)
        for (int p = 0; p < kc; p++)
            for (int i = 0; i < mr && s * mr + i < mc; i++)
                Ap[((long)s * kc + p) * mr + i] = A[(long)(s * mr + i) * lda + p];
}

void ex_pack_b(int kc, int nc, const float *B, int ldb, int nr, float *Bp)
{
    for (int p = 0; p < kc; p++)
        for (int s = 0; s * nr < nc; s++)
            for (int j = 0; j < nr && s * nr + j < nc; j++)
                Bp[((long)s * kc + p) * nr + j] = B[(long)p * ldb + s * nr + j];
}
