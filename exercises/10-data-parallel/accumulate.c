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
 * Check your work:  make ex-10.3   (1, 3, 4 and 5 replicas, 1 to 5
 * micro-batches, against one-device SGD on the whole batch).
 * The answer is in solutions/10-data-parallel/accumulate.c: try first.
 */
#include "accumulate.h"
#include "exercise.h"

void accumulate_step(pw_rank *r, mlp_shape s, float *w, const float *x, const float *y,
                     size_t batch, int micro, float lr)
{
    /* TODO: one step with gradient accumulation.
     *  1. R = pw_rank_size(r), me = pw_rank_id(r), np = mlp_nparams(s).
     *     Your shard: lo = coll_chunk_begin(batch, R, me), hi = ... me + 1
     *     (include "collectives.h").
     *  2. Two buffers of np floats (pw_alloc_floats, util.h): the running sum,
     *     zeroed, and one for each micro-batch's gradient (mlp_grad_sum
     *     OVERWRITES its output), plus scratch of s.k + s.o floats.
     *  3. Micro-batch m = samples lo + coll_chunk_begin(hi - lo, micro, m) up
     *     to lo + coll_chunk_begin(hi - lo, micro, m + 1); x and y advance by
     *     s.d and s.o floats per sample. Add each one's gradient into the sum.
     *     (Optionally charge the modelled clock: pw_compute(r,
     *     mlp_flops_per_sample(s) * samples, NULL).)
     *  4. One all-reduce of the sum: pw_comm comm = coll_comm_cluster(r);
     *     coll_allreduce_ring(&comm, sum, np). Not one per micro-batch.
     *  5. mlp_sgd(w, sum, np, lr, batch): the GLOBAL batch, since the sum is
     *     over all of it. Free the buffers.
     * Then delete the lines below. */
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
