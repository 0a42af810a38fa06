/* tests/wrong/16.1-rank0-updates.c: exercise 16.1 the easy serial way: every
 * rank sends its gradient to rank 0, which sums them, runs Adam on all n
 * weights with the m and v it was given, and sends the weights back. Right
 * on one rank; on two, rank 0's m and v are only its chunk's length.
 * expect: FAIL: p = 2, n = 64: rank 0 wrote m\[32\]
 * hint: outside its chunk's 32 elements */
#include <stdlib.h>
#include <math.h>

#include "shard_step.h"

void shard_step(pw_comm *c, float *w, float *g, size_t n, float *m, float *v, long t, const adam_config *cfg)
{
    int p = c->size;
    if (c->rank != 0) {
        coll_send(c, 0, 0, g, n * sizeof *g);
        coll_recv(c, 0, 0, w, n * sizeof *w);
        return;
    }
    float *tmp = malloc((n ? n : 1) * sizeof *tmp);
    for (int r = 1; r < p; r++) {
        coll_recv(c, r, 0, tmp, n * sizeof *tmp);
        for (size_t i = 0; i < n; i++) g[i] += tmp[i];
    }
    free(tmp);
    float c1 = 1 - powf(cfg->beta1, (float)t), c2 = 1 - powf(cfg->beta2, (float)t);
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        float gi = g[i];
        m[j] = cfg->beta1 * m[j] + (1 - cfg->beta1) * gi;
        v[j] = cfg->beta2 * v[j] + (1 - cfg->beta2) * gi * gi;
        w[i] -= cfg->lr * (m[j] / c1) / (sqrtf(v[j] / c2) + cfg->eps);
    }
    for (int r = 1; r < p; r++) coll_send(c, r, 0, w, n * sizeof *w);
}
