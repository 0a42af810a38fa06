/* tests/wrong/7.2-calls-reference.c: exercise 7.2 answered with the
 * chapter's own blocked rung (kernels/gemm.c).
 * expect: FAIL: 7.2-calls-reference.c calls gemm_blocked\(\) */
#include "blocked.h"
#include "gemm.h"

void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C) { gemm_blocked(m, n, k, A, B, C); }
