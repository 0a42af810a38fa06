/* exercises/10-data-parallel/halo.h: the interface of exercise 10.4, a bug
 * hunt. exercises/10-data-parallel/halo.c implements it (with one bug); the
 * checker (check_halo.c) and the solution include this same header. */
#ifndef PW_EX_HALO_H
#define PW_EX_HALO_H

#include <stddef.h>

#include "collectives.h"

/* Heat spreading along a closed ring of p*m cells (a periodic rod), split
 * over the p ranks of c: rank r owns cells r*m .. r*m + m-1, in u[1..m];
 * u[0] and u[m+1] are ghost cells for the neighbours' edge cells (the left
 * neighbour's last, the right neighbour's first; rank 0's left neighbour is
 * rank p-1). Each of `steps` steps sets every owned cell to
 *   0.25 (cell on the left) + 0.5 (the cell) + 0.25 (cell on the right),
 * all cells from the values of the step before; next[] (m+2 floats) is
 * scratch. Afterwards u[1..m] holds this rank's cells.
 *
 * Called on every rank at once. Only coll_send, coll_recv and coll_compute
 * (kernels/collectives.h): each step charges 5 flops per cell, and a step's
 * halo exchange overlaps across the ranks: on one node a step takes
 * 2 (alpha + 4 beta) + 5 m / rate of modelled time when all ranks exchange
 * at once, and the checker allows up to 6 (alpha + 4 beta) + 5 m / rate for
 * any p >= 2 (a cost that must not grow with p; one rank sends nothing:
 * 5 m / rate). m >= 1. */
void heat_steps(pw_comm *c, float *u, float *next, size_t m, int steps);

#endif
