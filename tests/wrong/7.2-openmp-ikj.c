/* tests/wrong/7.2-openmp-ikj.c: exercise 7.2 with the loop order swapped,
 * no blocking, and the rows of C shared out among OpenMP threads: right,
 * and on two cores faster than one core's loops whatever the blocking.
 * The exercise times one core's loops against one core's; threads are
 * rung 5. (Built without OpenMP, the pragma is ignored and it is the loop
 * order alone, failed by the blocking's bar.)
 * expect: FAIL: 7.2-openmp-ikj.c calls (GOMP_|omp_|__kmpc_)[A-Za-z_0-9]*\(\): threads|FAIL: [0-9.]+x the i, k, j loop at
 * skip-if: The blocking is not judged */
#include "blocked.h"

void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++) {
        float *c = C + (long)i * n;
        for (int j = 0; j < n; j++) c[j] = 0;
        for (int p = 0; p < k; p++) {
            float a = A[(long)i * k + p];
            const float *b = B + (long)p * n;
            for (int j = 0; j < n; j++) c[j] += a * b[j];
        }
    }
}
