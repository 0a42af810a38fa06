/* kernels/softmax.h: softmax over one row, three ways (chapter 06, fusion).
 *
 *   y[i] = exp(x[i] - m) / d,   m = max x,   d = sum exp(x[i] - m)
 *
 * Subtracting the max changes nothing mathematically (it cancels between
 * the top and the bottom) and keeps every exp in (0, 1]: exp(89) already
 * overflows a float. The variants differ only in how often they walk the
 * row, which for a row larger than the caches means trips to memory.
 * Bytes are the compulsory traffic of each pass (4 per float read, 4 per
 * float written; the write-allocate read of y is not counted, as STREAM
 * does not count it):
 *
 *   softmax_3pass         max; sum of exp(x - m); y = exp(x - m) / d
 *                         reads x three times, writes y once: 16 bytes and
 *                         2 exps per element
 *   softmax_3pass_stored  max; y = exp(x - m) and its sum; y = y / d
 *                         reads x twice, writes y, reads and writes y again:
 *                         20 bytes, 1 exp per element
 *   softmax_online        one pass for m and d together (Milakov and
 *                         Gimelshein, "Online normalizer calculation for
 *                         softmax", 2018): when a larger value arrives, the
 *                         sum so far is rescaled, d = d exp(m_old - m_new);
 *                         then y = exp(x - m) / d. Reads x twice, writes y
 *                         once: 12 bytes, 2 exps per element (and one per
 *                         1024-float chunk for the rescale). The same
 *                         arithmetic as softmax_3pass, a quarter fewer bytes.
 *
 * The online pass works in chunks of 1024 floats (4 KiB): the chunk's max,
 * one rescale if it is larger, then the chunk's sum. The chunk is read
 * twice, but the second read comes from L1, not memory; that is
 * FlashAttention's move too (a tile in fast memory, a running max and sum).
 *
 * Sums: 16 float lanes within a chunk, the chunks' sums added in double
 * (a float per lane drifts by 1e-3 over a 16M-float row).
 *
 * softmax_expf is the exp the variants use: branch-free, so the compiler
 * vectorises the loops around it (libm's expf is a call per element), for
 * x <= 0 only (which is all softmax needs), within 2 ulp for x >= -87 and 0
 * below (true value < 1.7e-38). Rows may hold -inf (a masked entry: y = 0);
 * a row whose every entry is -inf has no softmax (NaN, as in the reference).
 */
#ifndef PW_SOFTMAX_H
#define PW_SOFTMAX_H

#include <stddef.h>

void softmax_3pass(const float *x, float *y, size_t n);
void softmax_3pass_stored(const float *x, float *y, size_t n);
void softmax_online(const float *x, float *y, size_t n);

/* The online pass alone: the row's max and sum of exp(x - max). */
void softmax_online_stats(const float *x, size_t n, float *max, double *sum);

/* y[i] = softmax_expf(x[i]) for x[i] <= 0: to test the exp itself. */
void softmax_exp_array(const float *x, float *y, size_t n);

/* The reference, in double with libm's exp. */
void softmax_ref(const float *x, double *y, size_t n);

#define SOFTMAX_CHUNK 1024  /* floats per chunk of the online pass (4 KiB, in L1) */

#endif
