/* tests/wrong/10.4-no-exchange.c: exercise 10.4 "fixed" by dropping the
 * messages: each rank closes the ring on its own piece, as the one-rank case
 * does. No deadlock, but the cells next to a neighbour's piece are wrong.
 * expect: FAIL: p = 2, m = 1: rank 0 cell 0 */
#include <string.h>

#include "halo.h"

/* The ghosts from this rank's own ends: no messages at all. */
static void exchange_halos(pw_comm *c, float *u, size_t m)
{
    (void)c;
    u[0] = u[m];
    u[m + 1] = u[1];
}

void heat_steps(pw_comm *c, float *u, float *next, size_t m, int steps)
{
    for (int s = 0; s < steps; s++) {
        exchange_halos(c, u, m);
        for (size_t i = 1; i <= m; i++) next[i] = 0.25f * u[i - 1] + 0.5f * u[i] + 0.25f * u[i + 1];
        coll_compute(c, 5.0 * (double)m, "heat");   /* 3 multiplies and 2 adds per cell */
        memcpy(u + 1, next + 1, m * sizeof *u);
    }
}
