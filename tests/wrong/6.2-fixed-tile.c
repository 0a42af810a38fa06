/* tests/wrong/6.2-fixed-tile.c: exercise 6.2 with the tile argument
 * ignored: always 32 x 32 tiles. Every element is right (the edges are
 * cut short), and it is fast wherever 32 suits the caches; but the caller
 * asked for another tile, and gets this one.
 * expect: FAIL: transpose_tiles\(.*tile [0-9]+\) does not walk in in [0-9]+ x [0-9]+ tiles
 * hint: a fixed tile, or */
#include "transpose.h"

#define FIXED 32

void transpose_tiles(const float *in, float *out, size_t rows, size_t cols, size_t tile)
{
    (void)tile;
    for (size_t r0 = 0; r0 < rows; r0 += FIXED) {
        size_t r1 = r0 + FIXED < rows ? r0 + FIXED : rows;
        for (size_t c0 = 0; c0 < cols; c0 += FIXED) {
            size_t c1 = c0 + FIXED < cols ? c0 + FIXED : cols;
            for (size_t r = r0; r < r1; r++)
                for (size_t c = c0; c < c1; c++) out[c * rows + r] = in[r * cols + c];
        }
    }
}
