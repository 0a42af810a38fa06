/* tests/wrong/6.3-two-pass-disguised.c: exercise 6.3 as the plain two
 * passes, disguised: every tile is copied into a static buffer, and each
 * update recomputes the max (pass 1) and then the sum (pass 2) over all
 * the elements kept so far. The state is right after every tile, for one
 * row; but the row lives outside the state, so two rows fed in turns get
 * mixed up.
 * expect: FAIL: with two rows fed in turns
 * hint: keeps something besides the\s*$|copy of earlier tiles */
#include <math.h>

#include "online_softmax.h"

static float seen[1 << 16];
static size_t nseen;

void softmax_begin(softmax_state *s)
{
    s->max = -INFINITY;
    s->sum = 0.0f;
    nseen = 0;
}

void softmax_update(softmax_state *s, const float *tile, size_t n)
{
    for (size_t i = 0; i < n && nseen < sizeof seen / sizeof seen[0]; i++) seen[nseen++] = tile[i];
    float m = -INFINITY;
    for (size_t i = 0; i < nseen; i++) m = seen[i] > m ? seen[i] : m;       /* pass 1 */
    float d = 0.0f;
    if (m != -INFINITY)
        for (size_t i = 0; i < nseen; i++) d += expf(seen[i] - m);          /* pass 2 */
    s->max = m;
    s->sum = d;
}

void softmax_finish(const softmax_state *s, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = expf(x[i] - s->max) / s->sum;
}
