/* kernels/dp_train.h: one data-parallel replica's training loop, written on
 * a pw_comm so the same function trains on the virtual cluster
 * (chapters/10-data-parallel/dataparallel.c) and across Open MPI processes
 * (chapters/10-data-parallel/mpi_train.c).
 *
 * Each step: the global batch of b samples is split R ways (shards differ by
 * at most one sample when R does not divide b); the replica sums the
 * gradients of its shard (kernels/mlp.h), in k micro-batches when
 * accumulating; the sums, with the shard's summed loss in one extra float,
 * are all-reduced by the job's algorithm; every replica applies the same SGD
 * update to its own weights. On the cluster, coll_compute charges each
 * micro-batch's flops to the modelled clock; over MPI the work takes the time
 * it takes.
 */
#ifndef PW_DP_TRAIN_H
#define PW_DP_TRAIN_H

#include "collectives.h"
#include "mlp.h"

typedef struct {
    mlp_shape s;
    const float *x, *y;         /* all steps' data: steps * batch samples */
    size_t batch;               /* global batch */
    int steps;
    float lr;
    int micro;                  /* micro-batches per all-reduce (1: no accumulation) */
    coll_allreduce_fn allreduce;
} dp_job;

/* Train `w` (this replica's weights, updated in place) for j->steps steps on
 * the shard of comm->rank of comm->size. loss (may be NULL): per step, the
 * batch's mean loss before the update (the same on every replica). step_s
 * (may be NULL): per step, coll_now after the update minus before the step. */
void dp_replica(pw_comm *comm, const dp_job *j, float *w, double *loss, double *step_s);

/* The reference: one device, the whole batch, plain SGD (loss may be NULL). */
void dp_one_device(const dp_job *j, float *w, double *loss);

#endif
