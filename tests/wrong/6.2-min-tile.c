/* tests/wrong/6.2-min-tile.c: exercise 6.2 with the tile raised to at
 * least 8 ("narrower than an AVX register is not worth it"): right, and as
 * fast as the solution with the tiles the speed test uses (16, 32, 64);
 * but a caller who asks for tile 4 gets tile 8.
 * expect: FAIL: transpose_tiles\(in, out, [0-9]+, [0-9]+, tile 4\) does not walk in in 4 x 4 tiles
 * hint: With tile 8 it does walk tile by tile */
#include "transpose.h"

void transpose_tiles(const float *in, float *out, size_t rows, size_t cols, size_t tile)
{
    if (tile < 8) tile = 8;
    for (size_t r0 = 0; r0 < rows; r0 += tile) {
        size_t r1 = r0 + tile < rows ? r0 + tile : rows;
        for (size_t c0 = 0; c0 < cols; c0 += tile) {
            size_t c1 = c0 + tile < cols ? c0 + tile : cols;
            for (size_t r = r0; r < r1; r++)
                for (size_t c = c0; c < c1; c++) out[c * rows + r] = in[r * cols + c];
        }
    }
}
