/* tests/wrong/6.2-edge-tile.c: exercise 6.2 with the classic edge-tile bug:
 * the loops over tiles stop at the last whole tile, so where rows or cols is
 * not a multiple of the tile, the last rows and columns are never copied.
 * Right on every shape the tile divides.
 * expect: FAIL: out\[[0-9]+\]\[[0-9]+\] \(= in\[[0-9]+\]\[[0-9]+\]\) was never written
 * hint: edge tile */
#include "transpose.h"

void transpose_tiles(const float *in, float *out, size_t rows, size_t cols, size_t tile)
{
    for (size_t r0 = 0; r0 + tile <= rows; r0 += tile)
        for (size_t c0 = 0; c0 + tile <= cols; c0 += tile)
            for (size_t r = r0; r < r0 + tile; r++)
                for (size_t c = c0; c < c0 + tile; c++) out[c * rows + r] = in[r * cols + c];
}
