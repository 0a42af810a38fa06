/* exercises/07-gemm-cpu/blocked.c: exercise 7.2, the loop order and the
 * blocking of a matrix multiply (rungs 2 and 3 of chapter 07).
 *
 * The task: C = A*B with the same arithmetic as the naive loops below, in
 * an order that the memory system and the compiler can run fast. The naive
 * loops are correct and slow, and they are the starting point (the checker
 * times yours against them):
 *
 *     for (int i = 0; i < m; i++)
 *         for (int j = 0; j < n; j++) {
 *             float sum = 0;
 *             for (int p = 0; p < k; p++) sum += A[(long)i * k + p] * B[(long)p * n + j];
 *             C[(long)i * n + j] = sum;
 *         }
 *
 * Why it is a lesson: their inner loop walks down a column of B (n floats
 * apart: a new cache line for every multiply-add) and adds into one running
 * sum (each add waits for the one before, and nothing vectorises). Which
 * order of the three loops makes the innermost one contiguous and its
 * iterations independent? And for large matrices, how can a piece of B be
 * reused while it is still in cache? Chapter 07's table shows what each
 * step is worth on your machine.
 *
 * The interface (blocked.h):
 *   void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C);
 *   - row-major floats: A is m x k, B is k x n, C is m x n;
 *   - C is overwritten (it may hold anything, NaN included, before the call);
 *   - any m, n, k >= 1, not only multiples of a block size.
 *
 * What the checker tries (check_blocked.c): m x k x n = 1 x 1 x 1, 7 x 7 x 7,
 * 33 x 33 x 33, 45 x 130 x 67, 65 x 65 x 129 and 200 x 97 x 131, C filled
 * with NaN first, against a double-precision reference within the rounding
 * bound of a k-term sum. Then the speed at n = 256 against the naive loops
 * and the checker's own i, k, j loop, sampled in turns in the same run:
 * past halfway (on a log scale) from the first to the second. Then at
 * 8 x 4096 x 4096, where B (64 MiB) is past the caches: past halfway from
 * the i, k, j loop to blocked loops (not judged under a sanitizer, nor
 * where the machine shows no gap to judge by).
 *
 *   make ex-7.2      grade this file (each failure is explained)
 *   make hint-7.2    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/07-gemm-cpu/blocked.c: try first.
 */
#include "blocked.h"
#include "exercise.h"

void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C)
{
    /* TODO: your loops. Then delete the placeholder lines below. */
    (void)m; (void)n; (void)k; (void)A; (void)B; (void)C;
    PW_NOT_YET_IMPLEMENTED();
}
