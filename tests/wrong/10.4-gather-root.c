/* tests/wrong/10.4-gather-root.c: exercise 10.4 "fixed" by serialising
 * everything: rank 0 gathers the ring, updates it alone and scatters it
 * back. Every value is right, but rank 0's link carries 2(p-1) messages
 * per step and the update is no longer shared: 9.5 message times per step
 * on 8 ranks where the exchange takes 2 (on 2 ranks barely more than 2).
 * expect: FAIL: p = 8: the modelled time is */
#include <stdlib.h>
#include <string.h>

#include "halo.h"

#define TAG_LEFTWARD 1    /* a piece on its way to rank 0 */
#define TAG_RIGHTWARD 2   /* the updated piece on its way back */

/* Rank 0 gathers the whole ring, updates it, and sends every piece back:
 * no neighbour exchange to get wrong. */
void heat_steps(pw_comm *c, float *u, float *next, size_t m, int steps)
{
    int p = c->size, me = c->rank;
    size_t n = (size_t)p * m;
    for (int s = 0; s < steps; s++) {
        if (me != 0) {
            coll_send(c, 0, TAG_LEFTWARD, u + 1, m * sizeof *u);
            coll_recv(c, 0, TAG_RIGHTWARD, u + 1, m * sizeof *u);
            continue;
        }
        float *ring = malloc(n * sizeof *ring), *out = malloc(n * sizeof *out);
        if (!ring || !out) abort();
        memcpy(ring, u + 1, m * sizeof *u);
        for (int r = 1; r < p; r++) coll_recv(c, r, TAG_LEFTWARD, ring + (size_t)r * m, m * sizeof *u);
        for (size_t i = 0; i < n; i++)
            out[i] = 0.25f * ring[(i + n - 1) % n] + 0.5f * ring[i] + 0.25f * ring[(i + 1) % n];
        coll_compute(c, 5.0 * (double)n, "heat");
        for (int r = 1; r < p; r++) coll_send(c, r, TAG_RIGHTWARD, out + (size_t)r * m, m * sizeof *u);
        memcpy(u + 1, out, m * sizeof *u);
        free(ring);
        free(out);
    }
    (void)next;
}
