/* tests/wrong/7.2-naive-order.c: exercise 7.2 with the loops unchanged but
 * the sum kept in four partial accumulators: right, and still walking down
 * columns of B, so not much faster.
 * expect: FAIL: .*x the naive loops, [0-9.]+x wanted \(halfway to the i, k, j loop
 * skip-if: not judged under a sanitizer|the loop order is not judged */
#include "blocked.h"

void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float s[4] = { 0, 0, 0, 0 };
            int p = 0;
            for (; p + 4 <= k; p += 4)
                for (int q = 0; q < 4; q++) s[q] += A[(long)i * k + p + q] * B[(long)(p + q) * n + j];
            for (; p < k; p++) s[0] += A[(long)i * k + p] * B[(long)p * n + j];
            C[(long)i * n + j] = (s[0] + s[1]) + (s[2] + s[3]);
        }
}
