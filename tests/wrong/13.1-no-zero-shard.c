/* tests/wrong/13.1-no-zero-shard.c: exercise 13.1 answered with Adam's 12
 * bytes a parameter on every replica even with ZeRO-1: right whenever
 * ZeRO-1 is off, too much whenever it is on.
 * expect: FAIL: gpt3-175b, d 8 t 8 p 4 b 1 m 3, ZeRO-1 on
 * hint: with ZeRO-1 Adam's 12 bytes/param are split over the d = 8 replicas */
#include "memory.h"

double memory_per_device(const p3_model *md, const p3_config *cf)
{
    double per_dev = p3_params(md) / ((double)cf->t * cf->p);
    double s = md->seq, b = cf->b, h = md->hidden, a = md->heads;
    double layer = s * b * h * (34 + 5 * a * s / h) / cf->t;
    double inflight = cf->m < cf->p ? (double)cf->m : (double)cf->p, per_stage = (double)md->layers / cf->p;
    double act = cf->recompute ? per_stage * inflight * 2 * s * b * h / cf->t + layer : per_stage * inflight * layer;
    return 16 * per_dev + act;
}

int smallest_pipeline(const p3_model *md, const p3_cluster *cl, int t, int b, bool zero1, bool recompute)
{
    (void)md; (void)cl; (void)t; (void)b; (void)zero1; (void)recompute;
    return 0;
}
