/* kernels/transpose.h: matrix transpose, naive and cache-blocked (chapter 06).
 *
 * out = in^T: in is rows x cols (row-major), out is cols x rows, so
 * out[c*rows + r] = in[r*cols + c]. No arithmetic: 0 flops, and each
 * element is read once and written once, 2 x 4 = 8 compulsory bytes.
 *
 * Naive: one loop nest over in's rows. Reads walk along a row (every float
 * of each 64-byte line is used), but writes walk DOWN a column of out: each
 * write lands on a different cache line, `rows` floats apart. The next
 * float of that line is written one row of in later, after `rows` other
 * lines were touched: when rows x 64 bytes is more than the cache holds,
 * the line was evicted in between, and every float written costs a whole
 * line's trip to memory (16x the compulsory traffic, read and write back).
 *
 * Blocked: the same copies, in tiles of block x block. Within a tile the
 * writes touch `block` lines of out, each one written `block` times before
 * the tile moves on; if the tile's lines of in and out (2 x block x
 * ceil(4 block / 64) lines) fit in L1, each line is fetched once.
 * Edge tiles (rows or cols not a multiple of block) are cut short.
 */
#ifndef PW_TRANSPOSE_H
#define PW_TRANSPOSE_H

#include <stddef.h>

void transpose_naive(const float *in, float *out, size_t rows, size_t cols);
void transpose_blocked(const float *in, float *out, size_t rows, size_t cols, size_t block);

/* The reference: the naive loop in its plainest form, kept apart from the
 * timed variant so a change to one never hides a bug in the other. */
void transpose_ref(const float *in, float *out, size_t rows, size_t cols);

/* The first element where out is not in^T, as a flat index into out, or
 * (size_t)-1 when out is exactly in's transpose. */
size_t transpose_first_mismatch(const float *in, const float *out, size_t rows, size_t cols);

#endif
