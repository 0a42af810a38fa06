/* tests/wrong/7.2-ikj-only.c: exercise 7.2 with the loop order swapped
 * (i, k, j: the inner loop along rows of B and C, vectorised) and no
 * blocking. Right, and 8-34x the naive loops at n = 256, where B (256 KiB)
 * fits in L2 and blocking has nothing to add; at 8 x 4096 x 4096 it
 * streams all of B (64 MiB) from memory once per row of A, as the
 * checker's own i, k, j loop does. Built for SSE only (make ARCH=x86-64-v2)
 * two things change, measured here: the loop order alone is only 3.0-3.4x
 * the naive loops at n = 256 (it is the first bar's own reference, so it
 * clears that bar by sqrt of that), and the blocked loops, 4 floats a step, gain only 1.25-1.5x at
 * 8 x 4096 x 4096, around the 1.5x under which the blocking is not judged
 * (then: SKIP); with AVX2 (x86-64-v3) the gain is 2.1-2.5x, as with AVX-512.
 * expect: FAIL: [0-9.]+x the i, k, j loop at 8 x 4096 x 4096, [0-9.]+x wanted
 * hint: Is B blocked\?
 * skip-if: not judged under a sanitizer|The blocking is not judged */
#include "blocked.h"

void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C)
{
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
