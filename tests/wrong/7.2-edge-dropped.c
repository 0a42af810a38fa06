/* tests/wrong/7.2-edge-dropped.c: exercise 7.2 blocked in 16 x 16 tiles
 * that forgets the last, partial tile of each dimension: right when m, n, k
 * are multiples of 16, wrong at the odd sizes.
 * expect: FAIL: C is wrong at m x k x n = 1 x 1 x 1 */
#include "blocked.h"

#include <string.h>

void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C)
{
    memset(C, 0, sizeof(float) * (size_t)m * (size_t)n);
    for (int i0 = 0; i0 + 16 <= m; i0 += 16)
        for (int p0 = 0; p0 + 16 <= k; p0 += 16)
            for (int j0 = 0; j0 + 16 <= n; j0 += 16)
                for (int i = i0; i < i0 + 16; i++)
                    for (int p = p0; p < p0 + 16; p++)
                        for (int j = j0; j < j0 + 16; j++) C[(long)i * n + j] += A[(long)i * k + p] * B[(long)p * n + j];
}
