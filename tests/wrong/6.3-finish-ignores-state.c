/* tests/wrong/6.3-finish-ignores-state.c: exercise 6.3 with a right
 * online update, but softmax_finish ignores the state it is given: it
 * works out the max and the sum from x again, two more passes over the
 * row. Right whenever x is the whole row; wrong on a slice of the row,
 * whose own max and sum are not the row's.
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

/* The state is there, unused: the max and the sum again, from x. */
void softmax_finish(const softmax_state *s, const float *x, float *y, size_t n)
{
    (void)s;
    float m = -INFINITY, d = 0.0f;
    for (size_t i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
    for (size_t i = 0; i < n; i++) d += expf(x[i] - m);
    for (size_t i = 0; i < n; i++) y[i] = expf(x[i] - m) / d;
}
