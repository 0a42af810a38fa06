/* exercises/10-data-parallel/halo.c: exercise 10.4, a bug hunt.
 *
 * Domain decomposition, the other face of data parallelism: instead of
 * replicas that each take a share of the batch, one big array (here a ring
 * of cells that heat spreads along, halo.h) is cut into one piece per rank.
 * Each step a cell needs its two neighbours, so a rank first swaps its edge
 * cells with the ranks on either side (the "halo exchange": each rank keeps
 * a ghost copy of the cell just past each of its ends), then updates its
 * own cells locally. Stencil codes, weather and fluid models, and the
 * sequence-parallel parts of a transformer all run this way.
 *
 * The author tested it on one rank and it was right. Users report that on
 * the cluster it never finishes, with any number of ranks from 2 up. It has
 * ONE bug. Find it and fix it here, changing as little as you can.
 *
 * Check your fix:  make ex-10.4     A hint, one level at a time:  make hint-10.4
 */
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
    coll_recv(c, left, TAG_RIGHTWARD, &u[0], sizeof(float));
    coll_send(c, right, TAG_RIGHTWARD, &u[m], sizeof(float));
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
