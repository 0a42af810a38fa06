/* tests/wrong/6.3-copy-per-state.c: exercise 6.3 as the two plain passes,
 * disguised better than tests/wrong/6.3-two-pass-disguised.c: each state
 * (told apart by its address) gets its own static copy of the tiles it was
 * fed, and each update recomputes the max (pass 1) and the sum (pass 2)
 * over that copy. Right tile by tile, and right for two rows fed in turns
 * (two states, two copies); but resumed from a state it did not build
 * itself, it has no copy of the elements that state stands for.
 * expect: FAIL: row .*, resumed from a state the checker wrote: after tile [0-9]+
 * hint: besides the state \(a copy of earlier tiles\?\) */
#include <math.h>

#include "online_softmax.h"

#define SLOTS 4
#define KEEP (1 << 14)

static struct { const softmax_state *owner; size_t n; float x[KEEP]; } copies[SLOTS];

static int slot_of(const softmax_state *s)
{
    for (int i = 0; i < SLOTS; i++) if (copies[i].owner == s) return i;
    for (int i = 0; i < SLOTS; i++) if (!copies[i].owner) { copies[i].owner = s; return i; }
    copies[0].owner = s;
    copies[0].n = 0;
    return 0;
}

void softmax_begin(softmax_state *s)
{
    s->max = -INFINITY;
    s->sum = 0.0f;
    copies[slot_of(s)].n = 0;
}

void softmax_update(softmax_state *s, const float *tile, size_t n)
{
    int c = slot_of(s);
    for (size_t i = 0; i < n && copies[c].n < KEEP; i++) copies[c].x[copies[c].n++] = tile[i];
    float m = -INFINITY;
    for (size_t i = 0; i < copies[c].n; i++) m = copies[c].x[i] > m ? copies[c].x[i] : m;       /* pass 1 */
    float d = 0.0f;
    if (m != -INFINITY)
        for (size_t i = 0; i < copies[c].n; i++) d += expf(copies[c].x[i] - m);                /* pass 2 */
    s->max = m;
    s->sum = d;
}

void softmax_finish(const softmax_state *s, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = expf(x[i] - s->max) / s->sum;
}
