/* exercises/06-memory-wall/online_softmax.c: exercise 6.3, the online softmax.
 *
 * What it teaches: softmax needs the row's max (so that no exp overflows:
 * exp(89) is already past a float's range) and the sum of exp(x - max).
 * Done plainly, that is two passes over the row before the one that writes
 * the result. The online form finds both in ONE pass: keep the max so far
 * and the sum so far; when a larger value m' arrives, every term already
 * in the sum was exp(x - m) and should be exp(x - m'), which is the old
 * one times exp(m - m'): so rescale the sum once, sum *= exp(m - m'), and
 * carry on. One trip over the row saved: for a row larger than the caches,
 * a quarter of the memory traffic (chapter 06's softmax measures it).
 *
 * Write the three functions (see online_softmax.h). Use expf from <math.h>.
 * Check:  make ex-6.3  (rows with large values, masked -inf entries, a
 * first tile that is all -inf, length 1, odd lengths and tile sizes; the
 * state is checked after every tile, and two rows are fed in turns, so
 * only the state may carry what you have seen).
 * The answer is in solutions/06-memory-wall/online_softmax.c: try first.
 */
#include <math.h>

#include "exercise.h"
#include "online_softmax.h"

void softmax_begin(softmax_state *s)
{
    s->max = -INFINITY;
    s->sum = 0.0f;
}

void softmax_update(softmax_state *s, const float *tile, size_t n)
{
    /* TODO:
     *  1. m = the larger of s->max and the tile's largest element;
     *  2. if m is -INFINITY, everything so far is masked: return (and note
     *     that exp(-inf - -inf) would be exp(NaN));
     *  3. rescale: s->sum *= expf(s->max - m)   (0 when s->max was -INFINITY);
     *  4. add the tile: s->sum += expf(tile[i] - m) for every i;
     *  5. s->max = m.
     * Then delete the lines below. */
    (void)s;
    (void)tile;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
}

void softmax_finish(const softmax_state *s, const float *x, float *y, size_t n)
{
    /* TODO: y[i] = expf(x[i] - s->max) / s->sum. Then delete the lines below. */
    (void)s;
    (void)x;
    (void)y;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
}
