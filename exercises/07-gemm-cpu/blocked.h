/* exercises/07-gemm-cpu/blocked.h: what exercise 7.2 asks you to write.
 * Your exercises/07-gemm-cpu/blocked.c implements it; the checker and the
 * solution include this same header. */
#ifndef PW_EX_BLOCKED_H
#define PW_EX_BLOCKED_H

/* C = A*B, row-major floats: A is m x k, B is k x n, C is m x n and is
 * overwritten. Any m, n, k >= 1. */
void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C);

#endif
