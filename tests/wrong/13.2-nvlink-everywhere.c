/* tests/wrong/13.2-nvlink-everywhere.c: exercise 13.2 answered with every
 * group on NVLink: right while all groups fit in a node, far too fast
 * once tensor groups (or replicas) span nodes.
 * expect: FAIL: gpt3-175b, d 16 x t 8 x p 8 placed tp-dp-pp
 * hint: yours prices every link as NVLink */
#include "step_time.h"

double step_time(const p3_work *w, const p3_cluster *cl, const p3_config *cf, double rate)
{
    double a = cl->intra_alpha, b = 1.0 / (cl->intra_gbs * 1e9);
    double ring = coll_model_ring(cf->t, w->tp_elems, w->elem_bytes, a, b);
    double tf = w->f_flops / rate + w->tp_f * ring, tb = w->b_flops / rate + w->tp_b * ring;
    double c = a + (double)(w->pp_elems * w->elem_bytes) * b, m = (double)cf->m;
    double pp = cf->p > 1 ? 2 * (cf->p - 1) * c + 2 * (m - 1) * c : 0;
    return (m + cf->p - 1) * (tf + tb) + pp + coll_model_ring(cf->d, w->dp_elems, w->elem_bytes, a, b);
}
