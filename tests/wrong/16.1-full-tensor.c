/* tests/wrong/16.1-full-tensor.c: exercise 16.1 with every rank updating all
 * n weights after the reduce-scatter (and then gathering), as plain data
 * parallelism does, with m and v indexed by the weight: right on one rank,
 * and on more it writes past the chunk's state (and updates the others'
 * chunks with partial sums, which the gather then overwrites).
 * expect: FAIL: p = 2, n = 64: rank [01] wrote m\[32\], outside its chunk's 32 elements
 * hint: Does every */
#include <math.h>

#include "shard_step.h"

void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg)
{
    coll_reduce_scatter_ring(c, g, n);
    float c1 = 1 - powf(cfg->beta1, (float)t), c2 = 1 - powf(cfg->beta2, (float)t);
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        float gi = g[i];
        m[j] = cfg->beta1 * m[j] + (1 - cfg->beta1) * gi;
        v[j] = cfg->beta2 * v[j] + (1 - cfg->beta2) * gi * gi;
        w[i] -= cfg->lr * (m[j] / c1) / (sqrtf(v[j] / c2) + cfg->eps);
    }
    coll_allgather_ring(c, w, n);
}
