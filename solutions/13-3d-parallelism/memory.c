/* solutions/13-3d-parallelism/memory.c: exercise 13.1 solved.
 *
 * The model states are (2 + 2 + 12) bytes a parameter, or 4 + 12/d with
 * ZeRO-1 (Rajbhandari et al. 2020); the first stage's activations are
 * min(p, m) micro-batches of L/p layers (1F1B), each layer s b h (34 + 5 a
 * s/h)/t bytes with tensor and sequence parallelism (Korthikanti et al.
 * 2022), or 2 s b h / t with full recomputation plus one whole layer. For
 * GPT-3 175B on t = 8, p = 8: 2.73B parameters a device, 43.7 GB of states
 * without ZeRO-1, 13.0 GB with it at d = 16.
 */
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
        if (md->batch % d || (md->batch / d) % b) continue;
        p3_config cf = { (int)d, t, p, b, md->batch / d / b, zero1, recompute, P3_ORDER_TDP };
        if (memory_per_device(md, &cf) <= cl->mem_gb * 1e9) return p;
    }
    return 0;
}
