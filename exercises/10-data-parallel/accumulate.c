/* exercises/10-data-parallel/accumulate.c: exercise 10.3, gradient
 * accumulation: k micro-batches per all-reduce.
 *
 * What it teaches: a replica whose share of the batch does not fit in its
 * memory at once works through it in k micro-batches, adding up their
 * gradients, and all-reduces once per step instead of k times. Because
 * mlp_grad_sum returns SUMS over samples, the micro-batches' sums add up to
 * the shard's sum, the shards' sums to the batch's: the weights are those of
 * one device on the whole batch, up to the order of the additions. The
 * communication is 1/k of all-reducing every micro-batch (chapter 10's
 * scaling program: 51% of the step down to 6% at k = 16).
 *
 * The task: one SGD step of data-parallel training in which each replica
 * goes through its shard in `micro` micro-batches and the cluster
 * all-reduces once per step.
 *
 * The interface (accumulate.h, which says it in full):
 *   void accumulate_step(pw_rank *r, mlp_shape s, float *w, const float *x, const float *y,
 *                        size_t batch, int micro, float lr);
 *   - called on every rank at once; x and y are the whole global batch,
 *     the same on every rank; w is this replica's copy of the weights;
 *   - this replica's shard, and each micro-batch inside it, are the chunks
 *     coll_chunk_begin gives (kernels/collectives.h): uneven when the
 *     counts do not divide, and every shard holds at least `micro` samples;
 *   - gradients from mlp_grad_sum (kernels/mlp.h: a SUM over the samples,
 *     written over its output), one coll_allreduce_ring per step, then
 *     mlp_sgd with the global batch size;
 *   - afterwards every replica holds the same bits, and the weights of one
 *     device stepping on the whole batch.
 *
 * What the checker tries (check_accumulate.c): an 8-16-3 MLP, 6 steps on
 * batches of 101 samples (a prime: uneven shards and micro-batches), on
 * (replicas, micro-batches) = (1, 1), (1, 4), (3, 1), (3, 4), (4, 5) and
 * (5, 3): every replica bitwise the same, the weights within 1e-6 + 1e-4 |w|
 * of one-device SGD, and 2R(R-1) messages per step (one ring all-reduce).
 *
 *   make ex-10.3      grade this file (each failure is explained)
 *   make hint-10.3    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/10-data-parallel/accumulate.c: try first.
 */
#include "accumulate.h"
#include "exercise.h"

void accumulate_step(pw_rank *r, mlp_shape s, float *w, const float *x, const float *y,
                     size_t batch, int micro, float lr)
{
    /* TODO: one step. Then delete the placeholder lines below. */
    (void)r;
    (void)s;
    (void)w;
    (void)x;
    (void)y;
    (void)batch;
    (void)micro;
    (void)lr;
    PW_NOT_YET_IMPLEMENTED();
}
