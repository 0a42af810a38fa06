/* tests/wrong/6.2-naive.c: exercise 6.2 answered with the plain loop, the
 * tile ignored: every element right, but one cache line per float written.
 * expect: FAIL: transpose_tiles is right but only
 * skip-if: under a sanitizer the speed is not judged */
#include "transpose.h"

void transpose_tiles(const float *in, float *out, size_t rows, size_t cols, size_t tile)
{
    (void)tile;
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++) out[c * rows + r] = in[r * cols + c];
}
