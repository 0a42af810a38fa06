/* exercises/06-memory-wall/online_softmax.h: what exercise 6.3 asks you to write.
 *
 * Your exercises/06-memory-wall/online_softmax.c implements it; the checker
 * (check_online_softmax.c) and the solution include this same header.
 *
 * A row arrives in tiles, one after the other, and each tile is seen once
 * (the caller may overwrite it as soon as softmax_update returns). All you
 * may keep between tiles is the state below: the largest value so far and
 * the sum so far of exp(x - max), over every element seen. That is the
 * online softmax (Milakov and Gimelshein, 2018), and the heart of
 * FlashAttention. */
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
 * s->sum are those of every element seen so far. Elements may be -INFINITY
 * (masked: they add exp(-inf) = 0); a tile may be all -INFINITY. */
void softmax_update(softmax_state *s, const float *tile, size_t n);

/* The second pass: y[i] = exp(x[i] - s->max) / s->sum for the whole row x
 * of n elements (after every tile of it went through softmax_update). */
void softmax_finish(const softmax_state *s, const float *x, float *y, size_t n);

#endif
