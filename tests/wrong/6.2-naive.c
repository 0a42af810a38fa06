/* tests/wrong/6.2-naive.c: exercise 6.2 answered with the plain loop, the
 * tile ignored: every element right, but one cache line per float written.
 * (The access order names it, in milliseconds and under a sanitizer too;
 * it was once failed by the speed test only, "transpose_tiles is right but
 * only 1.0x", which took 32 calls of 0.5-0.7 s and hit the checker's 16 s
 * limit on a busy machine.)
 * expect: FAIL: transpose_tiles\(in, out, [0-9]+, [0-9]+, tile [0-9]+\) does not walk in in
 * hint: Not with tile [0-9]+ either */
#include "transpose.h"

void transpose_tiles(const float *in, float *out, size_t rows, size_t cols, size_t tile)
{
    (void)tile;
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++) out[c * rows + r] = in[r * cols + c];
}
