/* exercises/16-sharded-data-parallel/shard_step.h: what exercise 16.1 asks
 * you to write. Your exercises/16-sharded-data-parallel/shard_step.c
 * implements it; the checker and the solution include this same header. */
#ifndef PW_EX_SHARD_STEP_H
#define PW_EX_SHARD_STEP_H

#include <stddef.h>

#include "collectives.h"

/* Adam's hyperparameters. */
typedef struct { float lr, beta1, beta2, eps; } adam_config;

/* One ZeRO-1 Adam step, called on every rank of c at once.
 *   w  the n weights, the same on every rank (a replica); updated in place:
 *      on return every rank holds the same new weights, bit for bit;
 *   g  this rank's gradient of all n weights; the gradient of the step is
 *      the sum over ranks, G = sum_r g_r (each rank's g is already scaled
 *      for that). g is scratch: the function may overwrite it;
 *   m, v  Adam's first and second moments of THIS RANK'S CHUNK ONLY: len
 *      floats each, where the rank's chunk is chunk k = coll_rs_owned_chunk
 *      (rank, p) of n split p ways, elements [b, e) with b =
 *      coll_chunk_begin(n, p, k), e = coll_chunk_begin(n, p, k + 1), len =
 *      e - b (0 is possible when n < p); m[j] and v[j] belong to weight b + j.
 *      Zero before step 1; kept by the caller between steps;
 *   t  the step number, 1 for the first (a run resumed from a checkpoint
 *      starts later: use t, not a count of your own).
 * Adam (Kingma and Ba, ICLR 2015), for each weight i of the chunk:
 *   m_i = beta1 m_i + (1 - beta1) G_i
 *   v_i = beta2 v_i + (1 - beta2) G_i^2
 *   mhat = m_i / (1 - beta1^t),  vhat = v_i / (1 - beta2^t)
 *   w_i = w_i - lr mhat / (sqrt(vhat) + eps)
 * The steps: coll_reduce_scatter_ring(c, g, n) leaves G complete on this
 * rank's chunk only; update the chunk's weights and its m, v; then
 * coll_allgather_ring(c, w, n) gives every rank every chunk's new weights.
 * Allowed from the library: coll_reduce_scatter_ring, coll_allgather_ring,
 * coll_chunk_begin, coll_rs_owned_chunk (and coll_send/coll_recv); not an
 * all-reduce, nor kernels/zero.c's sharded step. */
void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg);

#endif
