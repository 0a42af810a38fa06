/* exercises/06-memory-wall/transpose.c: exercise 6.2, a cache-blocked transpose.
 *
 * The task: out = in^T, the same copies as the plain loop, in an order that
 * is kind to the cache: tile by tile. Why it is a lesson: the plain loop
 * reads along the rows of in but writes down the columns of out, one cache
 * line (64 bytes, 16 floats) per float written; by the time it comes back
 * to write the next float of that line, a large matrix has pushed the line
 * out of the cache. Working on a tile x tile square at a time, every line
 * of out that the square touches is written `tile` times while it is still
 * in L1. Same arithmetic (none), another order, several times the speed.
 *
 * The interface (transpose.h):
 *   void transpose_tiles(const float *in, float *out, size_t rows, size_t cols, size_t tile);
 *   - in is rows x cols, row-major; out is cols x rows:
 *     out[c*rows + r] = in[r*cols + c] for every r, c;
 *   - rows, cols, tile >= 1; tile need not divide rows or cols (the edge
 *     tiles are smaller), and may be larger than the matrix;
 *   - nothing outside out[0 .. rows*cols - 1] is written.
 *
 * What the checker tries (check_transpose.c): shapes 1x1, 1x33, 33x1, 7x7,
 * 33x33, 257x257, 7x257, 257x33 and 100x37, each with tiles 1, 3, 16, 32 and
 * 300, on distinct values, exactly (out starts with a value in never holds,
 * so a skipped edge tile shows). Then the order of the accesses, with no
 * clock: in and out are protected page by page, only one page of each open
 * at a time, and every move to another page is counted. With 4 KiB pages,
 * tile 4 on 256 x 256 and tile 8 on 128 x 128 (a page of in is a band of
 * `tile` rows, a page of out a band of `tile` columns): a walk that finishes
 * each tile before the next moves at most once per tile in each; a fixed or
 * bounded tile, the naive loop, or strips of columns move more, and fail.
 * Then the speed on 6000 x 6000 floats (past the caches): yours with tiles
 * 16, 32 and 64, the naive loop and the checker's own tiles (32 and 64),
 * in turns. If the checker's best tile runs G times the naive loop, your
 * best must reach sqrt(G); not judged where G < 1.5, nor under a sanitizer
 * (the order always is). Calling the workbook's transpose_blocked fails.
 *
 *   make ex-6.2      grade this file (each failure is explained)
 *   make hint-6.2    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/06-memory-wall/transpose.c: try first.
 */
#include "exercise.h"
#include "transpose.h"

void transpose_tiles(const float *in, float *out, size_t rows, size_t cols, size_t tile)
{
    /* TODO: the tiled copy. Then delete the placeholder lines below. */
    (void)in;
    (void)out;
    (void)rows;
    (void)cols;
    (void)tile;
    PW_NOT_YET_IMPLEMENTED();
}
