/* solutions/13-3d-parallelism/step_time.c: exercise 13.2 solved.
 *
 * The same sum as kernels/parallel3d.c's p3_time_model: GPipe's timeline
 * (every micro-batch's forward then every backward, one slot each on every
 * stage, p - 1 slots of fill and drain), the messages between stages (the
 * first micro-batch crosses every hop both ways, each later one follows at
 * the slowest hop's pace), then the ring all-reduce of the gradients over
 * the replicas. On GPT-3 175B with d 16 x t 8 x p 8, placed tensor-first:
 * 7.4 s; pipeline-first, the same numbers pay the network for every TP
 * all-reduce: 15.2 s.
 */
#include "step_time.h"

static void link_for(const p3_cluster *cl, bool crosses, double *alpha, double *beta)
{
    *alpha = crosses ? cl->inter_alpha : cl->intra_alpha;
    *beta = 1.0 / ((crosses ? cl->inter_gbs : cl->intra_gbs) * 1e9);
}

double step_time(const p3_work *w, const p3_cluster *cl, const p3_config *cf, double rate)
{
    double a, b;
    link_for(cl, p3_group_crosses(cf, cl->per_node, 't'), &a, &b);
    double ring = coll_model_ring(cf->t, w->tp_elems, w->elem_bytes, a, b);
    double tf = w->f_flops / rate + w->tp_f * ring, tb = w->b_flops / rate + w->tp_b * ring;
    double sum = 0, slowest = 0, bytes = (double)(w->pp_elems * w->elem_bytes);
    for (int s = 0; s + 1 < cf->p; s++) {
        bool crosses = p3_rank_of(cf, 0, 0, s) / cl->per_node != p3_rank_of(cf, 0, 0, s + 1) / cl->per_node;
        link_for(cl, crosses, &a, &b);
        double c = a + bytes * b;
        sum += c;
        slowest = c > slowest ? c : slowest;
    }
    link_for(cl, p3_group_crosses(cf, cl->per_node, 'd'), &a, &b);
    double dp = coll_model_ring(cf->d, w->dp_elems, w->elem_bytes, a, b);
    double m = (double)cf->m;
    return (m + cf->p - 1) * (tf + tb) + 2 * sum + 2 * (m - 1) * slowest + dp;
}
