/* tests/wrong/6.3-finish-own-sum.c: exercise 6.3 whose softmax_finish takes
 * the max from the state but adds up the sum again from x ("to be safe"),
 * one more pass over the row. Right whenever x is the whole row; on a
 * slice, it divides by the slice's sum: the softmax of the slice alone.
 * expect: FAIL: row .*: softmax_finish\(s, x \+ [0-9]+, y \+ [0-9]+, [0-9]+\), on the slice
 * hint: the softmax of the slice alone */
#include <math.h>

#include "online_softmax.h"

void softmax_begin(softmax_state *s)
{
    s->max = -INFINITY;
    s->sum = 0.0f;
}

void softmax_update(softmax_state *s, const float *tile, size_t n)
{
    float m = s->max;
    for (size_t i = 0; i < n; i++) m = tile[i] > m ? tile[i] : m;
    if (m == -INFINITY) return;
    s->sum *= expf(s->max - m);
    for (size_t i = 0; i < n; i++) s->sum += expf(tile[i] - m);
    s->max = m;
}

void softmax_finish(const softmax_state *s, const float *x, float *y, size_t n)
{
    float d = 0.0f;
    for (size_t i = 0; i < n; i++) d += expf(x[i] - s->max);
    for (size_t i = 0; i < n; i++) y[i] = expf(x[i] - s->max) / d;
}
