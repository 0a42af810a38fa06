/* tests/wrong/6.3-no-rescale.c: exercise 6.3 with the running max, but the
 * sum so far is not rescaled when the max grows: the old terms stay
 * exp(x - old max). Right whenever the first tile holds the row's max.
 * expect: FAIL: row .* after tile [0-9]+, sum =
 * hint: not rescaled */
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
    for (size_t i = 0; i < n; i++) s->sum += expf(tile[i] - m);
    s->max = m;
}

void softmax_finish(const softmax_state *s, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = expf(x[i] - s->max) / s->sum;
}
