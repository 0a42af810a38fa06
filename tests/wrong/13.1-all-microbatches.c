/* tests/wrong/13.1-all-microbatches.c: exercise 13.1 answered with the
 * activations of all m micro-batches (GPipe's memory), where 1F1B keeps at
 * most min(p, m) on the first stage: right when m <= p, too much above.
 * expect: FAIL: gpt3-175b, d 1 t 1 p 1 b 1 m 4, ZeRO-1 off, recomputation off
 * hint: under 1F1B the first stage holds at most min\(p, m\) = 1 in flight */
#include "memory.h"

double memory_per_device(const p3_model *md, const p3_config *cf)
{
    double per_dev = p3_params(md) / ((double)cf->t * cf->p);
    double states = per_dev * (4 + (cf->zero1 ? 12.0 / cf->d : 12.0));
    double s = md->seq, b = cf->b, h = md->hidden, a = md->heads;
    double layer = s * b * h * (34 + 5 * a * s / h) / cf->t;
    double held = (double)cf->m, per_stage = (double)md->layers / cf->p;
    double act = cf->recompute ? per_stage * held * 2 * s * b * h / cf->t + layer : per_stage * held * layer;
    return states + act;
}

int smallest_pipeline(const p3_model *md, const p3_cluster *cl, int t, int b, bool zero1, bool recompute)
{
    (void)md; (void)cl; (void)t; (void)b; (void)zero1; (void)recompute;
    return 0;
}
