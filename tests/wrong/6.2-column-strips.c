/* tests/wrong/6.2-column-strips.c: exercise 6.2 with 1-D strips instead of
 * 2-D tiles: the columns are taken `tile` at a time, but each column of the
 * strip is walked down every row of in before the next, so no tile x tile
 * square is finished before the next starts. out is written in order, in is
 * read down columns. Every element is right; it was 0.9x the naive loop
 * here, a verdict that took the speed test 10-16 s (32 calls of 0.3-0.7 s)
 * and timed out on a busy machine: the access order says it in
 * milliseconds. (Strips of `tile` rows walked across every column, one
 * column of the strip at a time, are NOT wrong: that is the same sequence
 * of accesses as the tile-by-tile loops with the column loop outside the
 * row loop, and it passes.)
 * expect: FAIL: transpose_tiles\(.*tile [0-9]+\) does not walk in in [0-9]+ x [0-9]+ tiles
 * hint: in is read down whole columns */
#include "transpose.h"

void transpose_tiles(const float *in, float *out, size_t rows, size_t cols, size_t tile)
{
    for (size_t c0 = 0; c0 < cols; c0 += tile) {
        size_t c1 = c0 + tile < cols ? c0 + tile : cols;
        for (size_t c = c0; c < c1; c++)
            for (size_t r = 0; r < rows; r++) out[c * rows + r] = in[r * cols + c];
    }
}
