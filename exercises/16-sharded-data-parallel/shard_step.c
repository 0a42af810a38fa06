/* exercises/16-sharded-data-parallel/shard_step.c: exercise 16.1, one
 * optimizer step sharded the ZeRO-1 way.
 *
 * The task: p data-parallel ranks each hold the model's n weights and their
 * own gradient of them. Plain data parallelism all-reduces the gradients
 * and every rank runs Adam on all n weights, keeping Adam's two moments for
 * all n: 8 bytes a parameter of optimizer state on every rank (12 with
 * mixed precision's fp32 master weights), the largest part of a model's
 * memory. ZeRO stage 1 (Rajbhandari et al., SC 2020) shards that state:
 * rank r keeps m and v of its own chunk of n/p weights only. The step
 * becomes: reduce-scatter the gradients (each rank gets the full sum of its
 * own chunk), Adam on the chunk, all-gather the weights. A ring all-reduce
 * is a reduce-scatter and an all-gather, so this moves exactly the bytes of
 * plain data parallelism, for 1/p of the optimizer's memory. Why it is a
 * lesson: the sharding is only right if the chunk a rank updates is the one
 * the reduce-scatter completed, its state is indexed from the chunk's start,
 * and the weights are gathered back.
 *
 * The interface (shard_step.h; Adam's formula is written out there):
 *   void shard_step(pw_comm *c, float *w, float *g, size_t n,
 *                   float *m, float *v, long t, const adam_config *cfg);
 *   - called on every rank at once; w: the n weights (replicas), g: this
 *     rank's gradient (scratch), m and v: Adam's state of this rank's chunk
 *     only (len floats: the chunk's length), t: the step number (1 first);
 *   - tools: coll_reduce_scatter_ring and coll_allgather_ring (in place, on
 *     the whole buffer), coll_rs_owned_chunk (the chunk the reduce-scatter
 *     completes on a rank), coll_chunk_begin (where chunk k starts;
 *     kernels/collectives.h), c->rank and c->size;
 *   - edge cases: p = 1 (Adam on everything), n < p (empty chunks), n not a
 *     multiple of p, t > 1 at the first call (a resumed run).
 *
 * What the checker tries (check_shard_step.c): 1, 2, 3, 4, 5 and 7 ranks with
 * n = 64, 7, 1001, 3 and 1, three steps each, against its own one-device
 * Adam in double precision; a run resumed at step 10 with other
 * hyperparameters. Each step it checks that every rank's m and v stay
 * within their chunk's len floats, each chunk's new weights on its owner, the
 * same bits on every other rank (the gather), m and v themselves, and that
 * the ranks sent the bytes of one reduce-scatter and one all-gather.
 *
 *   make ex-16.1      grade this file (each failure is explained)
 *   make hint-16.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/16-sharded-data-parallel/shard_step.c: try first.
 */
#include "exercise.h"
#include "shard_step.h"

void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg)
{
    /* TODO: reduce-scatter g, Adam on your chunk, all-gather w. Then delete
     * the placeholder lines below. */
    (void)c;
    (void)w;
    (void)g;
    (void)n;
    (void)m;
    (void)v;
    (void)t;
    (void)cfg;
    PW_NOT_YET_IMPLEMENTED();
}
