/* exercises/06-memory-wall/transpose.c: exercise 6.2, a cache-blocked transpose.
 *
 * What it teaches: the plain loop  out[c*rows + r] = in[r*cols + c]  reads
 * along rows of in but writes down columns of out, one cache line (64
 * bytes, 16 floats) per float written; by the time it comes back to write
 * the next float of that line, a large matrix has pushed the line out of
 * the cache. Done in tiles of tile x tile, each line of out is written
 * `tile` times while it is still in L1. Same copies, another order.
 *
 * Write transpose_tiles() (see transpose.h). Check:  make ex-6.2
 * (odd shapes, tiles that do not divide them, exact values, then the speed
 * against the naive loop on a matrix past the caches).
 * The answer is in solutions/06-memory-wall/transpose.c: try first.
 */
#include "exercise.h"
#include "transpose.h"

void transpose_tiles(const float *in, float *out, size_t rows, size_t cols, size_t tile)
{
    /* TODO:
     *  1. for r0 = 0, tile, 2 tile, ... while r0 < rows: the tile's last row
     *     r1 = min(r0 + tile, rows)   (the edge tile is shorter);
     *  2. inside it, for c0 the same way over cols, c1 = min(c0 + tile, cols);
     *  3. copy the tile: for r in [r0, r1), for c in [c0, c1):
     *        out[c * rows + r] = in[r * cols + c];
     * Then delete the lines below. */
    (void)in;
    (void)out;
    (void)rows;
    (void)cols;
    (void)tile;
    PW_NOT_YET_IMPLEMENTED();
}
