/* tests/wrong/16.1-floor-chunks.c: exercise 16.1 that passes by luck when p
 * divides n: its chunk k is [k (n/p), (k+1) (n/p)) in whole divisions, not
 * coll_chunk_begin's k n / p rounded down, so on 2 ranks and n = 7 rank 0
 * owns [3, 7) and updates only [3, 6): weight 6 is never updated.
 * expect: FAIL: p = 2, n = 7, step t = 1: rank 0 holds .* for weight 6
 * hint: did not update it */
#include <math.h>

#include "shard_step.h"

void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg)
{
    int p = c->size, k = coll_rs_owned_chunk(c->rank, p);
    coll_reduce_scatter_ring(c, g, n);
    size_t b = (size_t)k * (n / (size_t)p), e = b + n / (size_t)p;
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
