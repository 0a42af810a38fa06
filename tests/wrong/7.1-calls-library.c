/* tests/wrong/7.1-calls-library.c: exercise 7.1 answered with the
 * workbook's own packing (kernels/gemm.c).
 * expect: FAIL: 7.1-calls-library.c calls gemm_pack_a\(\) */
#include "gemm.h"
#include "pack.h"

void ex_pack_a(int mc, int kc, const float *A, int lda, int mr, float *Ap) { gemm_pack_a(mc, kc, A, lda, mr, Ap); }
void ex_pack_b(int kc, int nc, const float *B, int ldb, int nr, float *Bp) { gemm_pack_b(kc, nc, B, ldb, nr, Bp); }
