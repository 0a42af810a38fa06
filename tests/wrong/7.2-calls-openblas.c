/* tests/wrong/7.2-calls-openblas.c: exercise 7.2 answered with OpenBLAS.
 * expect: FAIL: 7.2-calls-openblas.c calls cblas_sgemm\(\)
 * skip-if: no OpenBLAS */
#include "blocked.h"

#if PW_HAVE_OPENBLAS
#include <cblas.h>
void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, A, k, B, n, 0.0f, C, n);
}
#else
#include <stdio.h>
void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C)
{
    (void)m; (void)n; (void)k; (void)A; (void)B; (void)C;
    puts("no OpenBLAS");
}
#endif
