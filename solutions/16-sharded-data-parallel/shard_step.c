/* solutions/16-sharded-data-parallel/shard_step.c: exercise 16.1, solved.
 *
 * The reduce-scatter leaves the full gradient of chunk coll_rs_owned_chunk
 * (rank) on each rank; only that chunk is updated, with state indexed from
 * its first element; the all-gather then sends every chunk from its owner to
 * everyone, so every rank ends with the owner's bits. */
#include <math.h>

#include "shard_step.h"

void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg)
{
    int p = c->size, k = coll_rs_owned_chunk(c->rank, p);
    coll_reduce_scatter_ring(c, g, n);
    size_t b = coll_chunk_begin(n, p, k), e = coll_chunk_begin(n, p, k + 1);
    float c1 = 1 - powf(cfg->beta1, (float)t), c2 = 1 - powf(cfg->beta2, (float)t);
    for (size_t j = 0; j < e - b; j++) {
        float gi = g[b + j];
        m[j] = cfg->beta1 * m[j] + (1 - cfg->beta1) * gi;
        v[j] = cfg->beta2 * v[j] + (1 - cfg->beta2) * gi * gi;
        float mhat = m[j] / c1, vhat = v[j] / c2;
        w[b + j] -= cfg->lr * mhat / (sqrtf(vhat) + cfg->eps);
    }
    coll_allgather_ring(c, w, n);
}
