/* tests/wrong/16.1-count-steps.c: exercise 16.1 that ignores the argument t
 * and counts its calls instead (one count per rank, started over after
 * three, the length of the checker's runs): right from t = 1, wrong for a
 * run resumed at t = 10.
 * expect: FAIL: p = 3, n = 1001, step t = 10: rank [0-2] holds
 * hint: a count of calls of your own */
#include <math.h>

#include "shard_step.h"

#define MAXR 64
static long calls[MAXR];

void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg)
{
    int p = c->size, k = coll_rs_owned_chunk(c->rank, p);
    (void)t;
    coll_reduce_scatter_ring(c, g, n);
    size_t b = coll_chunk_begin(n, p, k), e = coll_chunk_begin(n, p, k + 1);
    long *count = &calls[c->rank % MAXR];
    if (*count == 3) *count = 0;                 /* the checker's runs are three steps long */
    t = ++*count;
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
