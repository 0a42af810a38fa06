/* tests/wrong/16.1-own-gradient.c: exercise 16.1 that updates its chunk with
 * its own gradient (no reduce-scatter at all), then gathers.
 * expect: FAIL: p = 2, n = 64, step t = 1: rank 0 holds
 * hint: Adam on rank 0's own gradient */
#include <math.h>

#include "shard_step.h"

void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg)
{
    int p = c->size, k = coll_rs_owned_chunk(c->rank, p);
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
