/* tests/wrong/13.2-no-bubble.c: exercise 13.2 answered without the
 * pipeline's fill and drain: m (t_F + t_B) instead of (m + p - 1)(t_F + t_B).
 * Right for p = 1 only.
 * expect: FAIL: gpt3-175b, d 16 x t 8 x p 8 placed tp-dp-pp
 * hint: yours has no bubble */
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
        sum += a + bytes * b;
        slowest = a + bytes * b > slowest ? a + bytes * b : slowest;
    }
    link_for(cl, p3_group_crosses(cf, cl->per_node, 'd'), &a, &b);
    double m = (double)cf->m;
    return m * (tf + tb) + 2 * sum + 2 * (m - 1) * slowest + coll_model_ring(cf->d, w->dp_elems, w->elem_bytes, a, b);
}
