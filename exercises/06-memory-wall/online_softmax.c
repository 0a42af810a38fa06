/* exercises/06-memory-wall/online_softmax.c: exercise 6.3, the online softmax.
 *
 * The task: the statistics of a softmax (the row's max, and the sum of
 * exp(x - max)) in ONE pass over a row that arrives tile by tile, then the
 * outputs. Why it is a lesson: softmax needs the max so that no exp
 * overflows (exp(89) is already past a float's range) and the sum of
 * exp(x - max). Done plainly, that is two passes over the row before the
 * one that writes the result. The online form keeps a running max and a
 * running sum, and when a larger value arrives it corrects what the sum
 * already holds instead of starting over: work out the correction from
 * exp(a - b) = exp(a - c) exp(c - b). One trip over the row saved: for a row
 * larger than the caches, a quarter of the memory traffic (chapter 06's
 * softmax measures it), and the heart of FlashAttention.
 *
 * The interface (online_softmax.h):
 *   softmax_begin(s)              given below: the state before any element;
 *   softmax_update(s, tile, n)    fold n >= 1 more elements into s; afterwards
 *                                 s->max and s->sum are exactly those of every
 *                                 element seen so far (the tile is gone after
 *                                 the call: nothing else may carry it). s may
 *                                 be one the caller wrote itself (a saved max
 *                                 and sum), and several states may be in use
 *                                 in turns: use only *s and the tile;
 *   softmax_finish(s, x, y, n)    y[i] = exp(x[i] - s->max) / s->sum, where x
 *                                 may be a slice of the row (n consecutive
 *                                 elements of it, y the matching outputs) and s
 *                                 the whole row's state: y[i] from x[i] and *s.
 *   - elements may be -INFINITY (masked: they add exp(-inf) = 0, and their y
 *     is exactly 0); a tile, even the first, may be all -INFINITY; mind
 *     that -inf - -inf is NaN;
 *   - use expf from <math.h>; no malloc (nor calloc, realloc, aligned_alloc,
 *     posix_memalign): one pass keeps two floats.
 *
 * What the checker tries (check_online_softmax.c): rows of length 1, 7, 33,
 * 100, 1000 and 4099 fed in tiles of 1, 3, 16 and 64 (most not dividing the
 * length), with values in [-4, 4), large values in [90, 110) (exp(x) alone
 * overflows), every third entry -inf and the first 20 all -inf, rising and
 * falling rows. Each tile goes through one buffer, overwritten with NaN
 * after the call. The state is compared after every tile (max exactly, sum
 * within 2 (n + 2 tiles + 4) u relative, u = 2^-24), then the outputs (4 u
 * more; a masked y exactly 0), from softmax_finish on the whole row and then
 * on slices of 37 elements with the row's state (a finish that works out
 * its own max and sum from x gives the slice's softmax, and fails). Then
 * two rows are fed in turns, each with its own state (masked, n = 1000,
 * tile 16; large, n = 4099, tile 64). Last, rows of n = 1000 (tile 16, one
 * of each kind) are resumed after 496 elements from a state the checker
 * wrote itself (those elements' max, and their sum worked out in double and
 * rounded to float): an update that needs anything besides the two floats
 * fails.
 *
 *   make ex-6.3      grade this file (each failure is explained)
 *   make hint-6.3    one more hint level each time (3 levels, the last near the code)
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
    /* TODO: fold the tile into the state. Then delete the placeholder lines below. */
    (void)s;
    (void)tile;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
}

void softmax_finish(const softmax_state *s, const float *x, float *y, size_t n)
{
    /* TODO: the outputs. Then delete the placeholder lines below. */
    (void)s;
    (void)x;
    (void)y;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
}
