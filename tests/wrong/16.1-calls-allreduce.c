/* tests/wrong/16.1-calls-allreduce.c: exercise 16.1 with the library's ring
 * all-reduce of the gradients, then the owned chunk's update and the
 * all-gather: the weights are right, but the all-reduce is off limits (and
 * sends the gradients' bytes twice over what ZeRO-1 needs).
 * expect: FAIL: 16.1-calls-allreduce.c calls coll_allreduce_ring\(\) */
#include <math.h>

#include "shard_step.h"

void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg)
{
    int p = c->size, k = coll_rs_owned_chunk(c->rank, p);
    coll_allreduce_ring(c, g, n);
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
