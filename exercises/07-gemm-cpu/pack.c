/* exercises/07-gemm-cpu/pack.c: exercise 7.1, the packing routines of the
 * GEMM micro-kernel (rung 4 of chapter 07).
 *
 * What it teaches: the micro-kernel reads A and B as one contiguous stream
 * each (MR values of A, then NR values of B, per step of the depth), so a
 * copy puts them in that order first. The copy costs O(mk + kn) and saves
 * strided loads in an O(mnk) loop; the edge slivers are padded with zeros,
 * so the kernel always multiplies full MR x NR tiles and never needs a
 * special case (the zeros add nothing to C).
 *
 * Check your work:  make ex-7.1   (the checker compares your slivers with
 * the layout in pack.h at odd sizes, with a poisoned buffer, then runs the
 * chapter's GEMM with your packing and checks C against a double reference).
 * The answer is in solutions/07-gemm-cpu/pack.c: try first.
 */
#include "exercise.h"
#include "pack.h"

void ex_pack_a(int mc, int kc, const float *A, int lda, int mr, float *Ap)
{
    /* TODO: for each sliver s (0 .. ceil(mc/mr) - 1), each column p, each
     * row i of the sliver: Ap[(s*kc + p)*mr + i] = A[(s*mr + i)*lda + p],
     * or 0 when row s*mr + i is past mc. Then delete the lines below. */
    (void)mc; (void)kc; (void)A; (void)lda; (void)mr; (void)Ap;
    PW_NOT_YET_IMPLEMENTED();
}

void ex_pack_b(int kc, int nc, const float *B, int ldb, int nr, float *Bp)
{
    /* TODO: for each sliver s, each row p, each column j of the sliver:
     * Bp[(s*kc + p)*nr + j] = B[p*ldb + s*nr + j], or 0 past nc.
     * Then delete the lines below. */
    (void)kc; (void)nc; (void)B; (void)ldb; (void)nr; (void)Bp;
    PW_NOT_YET_IMPLEMENTED();
}
