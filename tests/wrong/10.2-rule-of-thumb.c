/* tests/wrong/10.2-rule-of-thumb.c: exercise 10.2 with right step times and
 * the best R from the rule of thumb R* = sqrt(C / 2 alpha) (C the one-device
 * compute, alpha the inter-node latency), rounded to the nearest power of
 * two. It lands on 256 for the chapter's job, but ignores that the ring
 * changes link at the node size: the small model's step rises as soon as
 * the ring leaves its node, and the rule says 16.
 * expect: FAIL: 1M parameters, 64K tokens: R = 8 is lowest */
#include <math.h>

#include "best_replicas.h"

double predict_step_time(const dp_setting *s, int R)
{
    double compute = 6.0 * s->params * (s->tokens / R) / (s->device_gflops * 1e9);
    if (R == 1) return compute;
    int one_node = R <= s->ranks_per_node;
    double alpha = one_node ? s->intra_alpha : s->inter_alpha;
    double beta = 1.0 / ((one_node ? s->intra_gbs : s->inter_gbs) * 1e9);
    return compute + 2.0 * (R - 1) * (alpha + 4.0 * s->params / R * beta);
}

int best_replicas(const dp_setting *s)
{
    double c = 6.0 * s->params * s->tokens / (s->device_gflops * 1e9);
    double e = floor(log2(sqrt(c / (2 * s->inter_alpha))) + 0.5);
    return e < 0 ? 1 : e > 10 ? 1024 : 1 << (int)e;
}
