/* tests/wrong/16.1-t-one.c: exercise 16.1 with the bias correction of the
 * first step at every step (1 - beta, not 1 - beta^t): right at t = 1 only.
 * expect: FAIL: p = 1, n = 64, step t = 2: rank 0 holds
 * hint: bias correction of step t = 1 */
#include <math.h>

#include "shard_step.h"

void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg)
{
    int p = c->size, k = coll_rs_owned_chunk(c->rank, p);
    (void)t;
    coll_reduce_scatter_ring(c, g, n);
    size_t b = coll_chunk_begin(n, p, k), e = coll_chunk_begin(n, p, k + 1);
    float c1 = 1 - cfg->beta1, c2 = 1 - cfg->beta2;
    for (size_t i = b; i < e; i++) {
        size_t j = i - b;
        float gi = g[i];
        m[j] = cfg->beta1 * m[j] + (1 - cfg->beta1) * gi;
        v[j] = cfg->beta2 * v[j] + (1 - cfg->beta2) * gi * gi;
        w[i] -= cfg->lr * (m[j] / c1) / (sqrtf(v[j] / c2) + cfg->eps);
    }
    coll_allgather_ring(c, w, n);
}
