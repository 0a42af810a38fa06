/* solutions/10-data-parallel/best_replicas.c: a solution of exercise 10.2.
 *
 * Added to the skeleton: predict_step_time (compute C/R, then the ring's
 * 2(R-1)(alpha + (n/R) beta) on the link the ring crosses) and the search
 * over the eleven powers of two. The formula is the virtual cluster's own
 * rule for a ring (common/cluster/cluster.h), so the prediction equals the
 * simulation to rounding; the search is then exact, no rule of thumb needed.
 * Graded by: make solution-10.2
 */
#include "best_replicas.h"

double predict_step_time(const dp_setting *s, int R)
{
    double compute = 6.0 * s->params * (s->tokens / R) / (s->device_gflops * 1e9);   /* added */
    if (R == 1) return compute;                                                         /* added */
    int one_node = R <= s->ranks_per_node;                                              /* added */
    double alpha = one_node ? s->intra_alpha : s->inter_alpha;                          /* added */
    double beta = 1.0 / ((one_node ? s->intra_gbs : s->inter_gbs) * 1e9);              /* added */
    double chunk = 4.0 * s->params / R;                                                 /* added: bytes */
    return compute + 2.0 * (R - 1) * (alpha + chunk * beta);                           /* added */
}

int best_replicas(const dp_setting *s)
{
    int best = 1;                                                                       /* added */
    for (int R = 2; R <= 1024; R *= 2)                                                  /* added */
        if (predict_step_time(s, R) < predict_step_time(s, best)) best = R;             /* added */
    return best;                                                                        /* added */
}
