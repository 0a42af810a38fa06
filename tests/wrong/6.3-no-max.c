/* tests/wrong/6.3-no-max.c: exercise 6.3 without subtracting the max: the
 * sum of exp(x), divided at the end. Mathematically the same softmax, and
 * right on small values; exp(x) overflows a float for x past 88.7.
 * expect: FAIL: row .* after tile [0-9]+, sum = |FAIL: row .*: y\[[0-9]+\]
 * hint: overflow|exp\(x - max\) */
#include <math.h>

#include "online_softmax.h"

void softmax_begin(softmax_state *s)
{
    s->max = -INFINITY;
    s->sum = 0.0f;
}

/* Keeps the max (the checker asks for it) but sums exp(x), not exp(x - max). */
void softmax_update(softmax_state *s, const float *tile, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (tile[i] > s->max) s->max = tile[i];
        s->sum += expf(tile[i]);
    }
}

void softmax_finish(const softmax_state *s, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = expf(x[i]) / s->sum;
}
