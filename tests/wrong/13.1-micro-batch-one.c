/* tests/wrong/13.1-micro-batch-one.c: exercise 13.1 with smallest_pipeline
 * trying each p with micro-batches of one sequence (b = 1, m = batch / d),
 * whatever b it is given: its memory_per_device is right, and so is its
 * answer for b = 1, but with b > 1 it counts one sequence's activations per
 * micro-batch where there are b, and a p that does not fit looks as if it
 * did (GPT-3 175B on 128 x 80 GB, t = 8, b = 2: 8 where the planner says 0).
 * expect: FAIL: gpt3-175b on 128 devices of (40|80) GB, t = [0-9]+, b = [2-8],
 * hint: yours is the answer for b = 1 */
#include "memory.h"

double memory_per_device(const p3_model *md, const p3_config *cf)
{
    double per_dev = p3_params(md) / ((double)cf->t * cf->p);
    double states = per_dev * (2 + 2 + (cf->zero1 ? 12.0 / cf->d : 12.0));
    double s = md->seq, b = cf->b, h = md->hidden, a = md->heads;
    double layer = s * b * h * (34 + 5 * a * s / h) / cf->t;
    double inflight = cf->m < cf->p ? (double)cf->m : (double)cf->p, per_stage = (double)md->layers / cf->p;
    double act = cf->recompute ? per_stage * inflight * 2 * s * b * h / cf->t + layer : per_stage * inflight * layer;
    return states + act;
}

int smallest_pipeline(const p3_model *md, const p3_cluster *cl, int t, int b, bool zero1, bool recompute)
{
    (void)b;   /* the mistake: every micro-batch taken as one sequence */
    long long N = (long long)cl->nodes * cl->per_node;
    for (int p = 1; p <= md->layers; p++) {
        if (md->layers % p || N % ((long long)t * p)) continue;
        long long d = N / ((long long)t * p);
        if (md->batch % d) continue;
        p3_config cf = { (int)d, t, p, 1, md->batch / d, zero1, recompute, P3_ORDER_TDP };
        if (memory_per_device(md, &cf) <= cl->mem_gb * 1e9) return p;
    }
    return 0;
}
