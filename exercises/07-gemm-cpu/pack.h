/* exercises/07-gemm-cpu/pack.h: what exercise 7.1 asks you to write.
 * Your exercises/07-gemm-cpu/pack.c implements it; the checker and the
 * solution include this same header. */
#ifndef PW_EX_PACK_H
#define PW_EX_PACK_H

/* Copy rows [0, mc) x columns [0, kc) of A (row-major, lda floats from one
 * row to the next) into MR-row slivers for the micro-kernel: sliver s holds,
 * for each column p = 0..kc-1 in turn, the mr values of rows s*mr .. s*mr +
 * mr - 1:
 *     Ap[(s*kc + p)*mr + i] = A[(s*mr + i)*lda + p]
 * The last sliver is padded with zeros where s*mr + i >= mc. Write exactly
 * ceil(mc/mr) * kc * mr floats. */
void ex_pack_a(int mc, int kc, const float *A, int lda, int mr, float *Ap);

/* The same for B's rows [0, kc) x columns [0, nc) (ldb floats per row) in
 * NR-column slivers:
 *     Bp[(s*kc + p)*nr + j] = B[p*ldb + s*nr + j]
 * zeros where s*nr + j >= nc. Write exactly ceil(nc/nr) * kc * nr floats. */
void ex_pack_b(int kc, int nc, const float *B, int ldb, int nr, float *Bp);

#endif
