/* exercises/06-memory-wall/transpose.h: what exercise 6.2 asks you to write.
 *
 * Your exercises/06-memory-wall/transpose.c implements it; the checker
 * (check_transpose.c) and the solution include this same header. */
#ifndef PW_EX_TRANSPOSE_H
#define PW_EX_TRANSPOSE_H

#include <stddef.h>

/* out = in^T, tile by tile: in is rows x cols (row-major), out is cols x
 * rows, out[c*rows + r] = in[r*cols + c]. Walk in in tiles of tile x tile
 * (the last tiles of a row or column of tiles are cut short where rows or
 * cols is not a multiple of tile). tile >= 1; rows, cols >= 1. */
void transpose_tiles(const float *in, float *out, size_t rows, size_t cols, size_t tile);

#endif
