/* exercises/06-memory-wall/online_softmax.h: what exercise 6.3 asks you to write.
 *
 * Your exercises/06-memory-wall/online_softmax.c implements it; the checker
 * (check_online_softmax.c) and the solution include this same header.
 *
 * A row arrives in tiles, one after the other, and each tile is seen once
 * (the caller may overwrite it as soon as softmax_update returns). All you
 * may keep between tiles is the state below: the largest value so far and
 * the sum so far of exp(x - max), over every element seen. Nothing else
 * may carry over: the caller may feed several rows in turns, each with its
 * own state, and may write a state itself (a saved max and sum) and resume
 * from it. That is the online softmax (Milakov and Gimelshein, 2018), and
 * the heart of FlashAttention. */
#ifndef PW_EX_ONLINE_SOFTMAX_H
#define PW_EX_ONLINE_SOFTMAX_H

#include <stddef.h>

typedef struct {
    float max;   /* the largest element seen so far; -INFINITY before any */
    float sum;   /* sum of exp(x - max) over the elements seen so far */
} softmax_state;

/* The state before any element: max = -INFINITY, sum = 0. */
void softmax_begin(softmax_state *s);

/* Fold the next n >= 1 elements of the row into s: afterwards s->max and
 * s->sum are those of every element seen so far. s may come from
 * softmax_begin and earlier updates, or be written by the caller (the max
 * and sum of the elements before this tile): the update may use only
 * s->max, s->sum and tile[0 .. n-1]. Elements may be -INFINITY (masked:
 * they add exp(-inf) = 0); a tile may be all -INFINITY. */
void softmax_update(softmax_state *s, const float *tile, size_t n);

/* The second pass: y[i] = exp(x[i] - s->max) / s->sum for i = 0 .. n-1,
 * where s is the state of the whole row (after every tile of it went
 * through softmax_update) and x may be the whole row or a slice of it (n
 * consecutive elements at any offset, y the matching outputs). Each y[i]
 * depends on x[i] and *s only, so the slices give the same y as the whole
 * row; a masked x[i] (-INFINITY) gives exactly 0. */
void softmax_finish(const softmax_state *s, const float *x, float *y, size_t n);

#endif
