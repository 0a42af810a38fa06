/* tests/wrong/16.1-no-gather.c: exercise 16.1 that updates its chunk and
 * stops there: each owner holds its chunk's new weights, every other rank a
 * stale copy of it (the weights before the step).
 * expect: FAIL: p = 2, n = 64, step t = 1: rank 0's copy of weight 0 is
 * hint: all-gather the weights */
#include <math.h>

#include "shard_step.h"

void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg)
{
    int p = c->size, k = coll_rs_owned_chunk(c->rank, p);
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
}
