/* exercises/07-gemm-cpu/blocked.c: exercise 7.2, the loop order and the
 * blocking of a matrix multiply (rungs 2 and 3 of chapter 07).
 *
 * What it teaches: the naive loops (in the TODO below) are correct and slow. Their inner loop
 * walks down a column of B (n floats apart: a new cache line for every
 * multiply-add) and adds into one running sum (each add waits for the one
 * before). The same arithmetic in another order is many times faster:
 * make the inner loop run along rows, so its loads are contiguous and its
 * iterations independent (the compiler then uses vector instructions), and
 * work on blocks of B that stay in cache.
 *
 * Check your work:  make ex-7.2   (the checker verifies C at odd sizes
 * against a double-precision reference, then times your version against
 * these naive loops in the same run: it must be at least 3x faster).
 * The answer is in solutions/07-gemm-cpu/blocked.c: try first.
 */
#include "blocked.h"
#include "exercise.h"

void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C)
{
    /* TODO: the naive loops are
     *
     *     for (int i = 0; i < m; i++)
     *         for (int j = 0; j < n; j++) {
     *             float sum = 0;
     *             for (int p = 0; p < k; p++) sum += A[(long)i * k + p] * B[(long)p * n + j];
     *             C[(long)i * n + j] = sum;
     *         }
     *
     * Write them in the order i, k, j instead (zero C first, then
     * C[i][j] += A[i][p] * B[p][j] with j innermost), and, for the larger
     * sizes, over blocks of B that stay in cache. Then delete the lines below. */
    (void)m; (void)n; (void)k; (void)A; (void)B; (void)C;
    PW_NOT_YET_IMPLEMENTED();
}
