/* tests/wrong/16.1-chunk-rank.c: exercise 16.1 with rank r updating chunk r,
 * where the reduce-scatter completed chunk (r + 1) mod p: the chunk it owns
 * is never updated (and the gather sends it on unchanged).
 * expect: FAIL: p = 2, n = 64, step t = 1: rank 0 holds .* for weight 32
 * hint: not chunk .rank. */
#include <math.h>

#include "shard_step.h"

void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg)
{
    int p = c->size, k = c->rank;
    coll_reduce_scatter_ring(c, g, n);
    size_t b = coll_chunk_begin(n, p, k), e = coll_chunk_begin(n, p, k + 1);
    float c1 = 1 - powf(cfg->beta1, (float)t), c2 = 1 - powf(cfg->beta2, (float)t);
    for (size_t i = b; i < e; i++) {
        size_t j = i - b;
        float gi = g[i];
        m[j] = cfg->beta1 * m[j] + (1 - cfg->beta1) * gi;
        v[j] = cfg->beta2 * v[j] + (1 - cfg->beta2) * gi * gi;
        w[i] -= cfg->lr * (m[j] / c1) / (sqrtf(v[j] / c2) + cfg->eps);
    }
    coll_allgather_ring(c, w, n);
}
