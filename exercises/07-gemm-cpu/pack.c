/* exercises/07-gemm-cpu/pack.c: exercise 7.1, the packing routines of the
 * GEMM micro-kernel (rung 4 of chapter 07).
 *
 * The task: copy a block of A into slivers of mr rows, and a block of B into
 * slivers of nr columns, in exactly the order the micro-kernel reads them,
 * padding the last sliver with zeros. Why it is a lesson: the micro-kernel
 * reads A and B as one contiguous stream each (mr values of A, then nr
 * values of B, per step along the depth), so a copy puts them in that order
 * first. The copy costs O(mk + kn) and saves strided loads in an O(mnk)
 * loop; the zero padding lets the kernel always multiply full mr x nr tiles,
 * with no special case at the edges (the zeros add nothing to C).
 *
 * The interface (pack.h, which gives the layout as a formula):
 *   void ex_pack_a(int mc, int kc, const float *A, int lda, int mr, float *Ap);
 *   void ex_pack_b(int kc, int nc, const float *B, int ldb, int nr, float *Bp);
 *   - A and B are row-major with leading dimensions lda and ldb (wider than
 *     the block: not mc, kc or nc);
 *   - write exactly ceil(mc/mr) * kc * mr floats of Ap (ceil(nc/nr) * kc * nr
 *     of Bp): every one of them, the padding as explicit zeros (the buffer
 *     is reused and holds garbage), nothing past the end;
 *   - mc or nc may be smaller than one sliver, or one past a multiple of it.
 *
 * What the checker tries (check_pack.c): slivers of 4, 6, 8, 14, 16, 32, 48
 * and 64, blocks of 1, 5, 13, 14, 15, 29 and 100 rows (columns), depths 1, 7
 * and 64, with leading dimensions wider than the block; the output filled
 * with NaN first and a guard zone past the end; every float compared with
 * the layout of pack.h. Then the chapter's packed GEMM (kernels/gemm.c)
 * runs with your two routines on 1 x 1 x 1, 7 x 5 x 9 and shapes past the
 * micro-kernel's and the cache blocking's edges, against a double-precision
 * reference.
 *
 *   make ex-7.1      grade this file (each failure is explained)
 *   make hint-7.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/07-gemm-cpu/pack.c: try first.
 */
#include "exercise.h"
#include "pack.h"

void ex_pack_a(int mc, int kc, const float *A, int lda, int mr, float *Ap)
{
    /* TODO: A's slivers. Then delete the placeholder lines below. */
    (void)mc; (void)kc; (void)A; (void)lda; (void)mr; (void)Ap;
    PW_NOT_YET_IMPLEMENTED();
}

void ex_pack_b(int kc, int nc, const float *B, int ldb, int nr, float *Bp)
{
    /* TODO: B's slivers. Then delete the placeholder lines below. */
    (void)kc; (void)nc; (void)B; (void)ldb; (void)nr; (void)Bp;
    PW_NOT_YET_IMPLEMENTED();
}
