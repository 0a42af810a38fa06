/* tests/wrong/13.1-b-divides.c: exercise 13.1 with smallest_pipeline
 * uses b in the memory but never asks that b divide batch / d: where a
 * replica's share of the batch is not a whole number of micro-batches
 * (Llama-2-70B's 1024 over d = 1 is not micro-batches of 3 sequences) it
 * takes m = batch / (d b) rounded down, and returns a p the planner skips.
 * Right for b = 1, which divides everything.
 * expect: FAIL: llama2-70b on 32 devices of 40 GB, t = 8, b = 3,
 * hint: not a whole number of micro-batches of b = 3|b must divide batch / d */
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
    long long N = (long long)cl->nodes * cl->per_node;
    for (int p = 1; p <= md->layers; p++) {
        if (md->layers % p || N % ((long long)t * p)) continue;
        long long d = N / ((long long)t * p);
        if (md->batch % d) continue;   /* the mistake: no (batch / d) % b */
        p3_config cf = { (int)d, t, p, b, md->batch / d / b, zero1, recompute, P3_ORDER_TDP };
        if (memory_per_device(md, &cf) <= cl->mem_gb * 1e9) return p;
    }
    return 0;
}
