/* tests/wrong/10.4-rank0-first.c: exercise 10.4 "fixed" by breaking the
 * circle at one place: rank 0 sends first, the others still receive first.
 * The deadlock is gone and every value is right, but the rightward
 * messages now go round the ring one rank after another: the step's
 * modelled time grows with p.
 * expect: FAIL: p = 8: the modelled time is */
#include <string.h>

#include "halo.h"

#define TAG_LEFTWARD 1    /* a rank's first cell, on its way to the left neighbour */
#define TAG_RIGHTWARD 2   /* a rank's last cell, on its way to the right neighbour */

/* Fill the ghost cells u[0] and u[m+1] from the neighbours' edge cells. */
static void exchange_halos(pw_comm *c, float *u, size_t m)
{
    int p = c->size, me = c->rank;
    if (p == 1) {                         /* the ring closes on this rank: no messages */
        u[0] = u[m];
        u[m + 1] = u[1];
        return;
    }
    int left = (me + p - 1) % p, right = (me + 1) % p;
    /* My first cell is my left neighbour's right ghost, and my right
     * neighbour's first cell is mine. */
    coll_send(c, left, TAG_LEFTWARD, &u[1], sizeof(float));
    coll_recv(c, right, TAG_LEFTWARD, &u[m + 1], sizeof(float));
    /* My last cell is my right neighbour's left ghost, and my left
     * neighbour's last cell is mine. */
    if (me == 0) {
        coll_send(c, right, TAG_RIGHTWARD, &u[m], sizeof(float));
        coll_recv(c, left, TAG_RIGHTWARD, &u[0], sizeof(float));
    } else {
        coll_recv(c, left, TAG_RIGHTWARD, &u[0], sizeof(float));
        coll_send(c, right, TAG_RIGHTWARD, &u[m], sizeof(float));
    }
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
