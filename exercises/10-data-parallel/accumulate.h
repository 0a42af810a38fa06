/* exercises/10-data-parallel/accumulate.h: what exercise 10.3 asks you to
 * write. Your exercises/10-data-parallel/accumulate.c implements it; the
 * checker and the solution include this same header. */
#ifndef PW_EX_ACCUMULATE_H
#define PW_EX_ACCUMULATE_H

#include <stddef.h>

#include "cluster.h"
#include "mlp.h"

/* One SGD step of data-parallel training with gradient accumulation, called
 * on every rank of the virtual cluster at once. x (batch x s.d) and y
 * (batch x s.o) are the whole global batch of this step, the same on every
 * rank; w (mlp_nparams(s) floats) is this replica's copy of the weights.
 * This replica's shard is samples [coll_chunk_begin(batch, R, me),
 * coll_chunk_begin(batch, R, me + 1)) (kernels/collectives.h); split it
 * into `micro` micro-batches the same way, sum their gradients
 * (mlp_grad_sum, kernels/mlp.h), all-reduce the sum ONCE with
 * coll_allreduce_ring, then mlp_sgd(w, sum, nparams, lr, batch).
 * Every shard holds at least `micro` samples. */
void accumulate_step(pw_rank *r, mlp_shape s, float *w, const float *x, const float *y,
                     size_t batch, int micro, float lr);

#endif
