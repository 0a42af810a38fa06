/* exercises/10-data-parallel/ring_allreduce.h: what exercise 10.1 asks you to
 * write. Your exercises/10-data-parallel/ring_allreduce.c implements it; the
 * checker and the solution include this same header. */
#ifndef PW_EX_RING_ALLREDUCE_H
#define PW_EX_RING_ALLREDUCE_H

#include <stddef.h>

#include "cluster.h"

/* Called on every rank of the virtual cluster at once, each with its own buf
 * of n floats. Afterwards every rank's buf holds the element-wise sum over
 * all ranks, the very same bits on every rank. Only pw_send, pw_recv,
 * pw_rank_id and pw_rank_size (common/cluster/cluster.h), and coll_chunk_begin
 * (kernels/collectives.h) for where chunk k starts; not the library's own
 * coll_allreduce_ring, which is the answer. n may be smaller than the rank
 * count, and need not be a multiple of it. */
void ring_allreduce(pw_rank *r, float *buf, size_t n);

#endif
