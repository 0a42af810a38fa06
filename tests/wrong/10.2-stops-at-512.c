/* tests/wrong/10.2-stops-at-512.c: exercise 10.2 with right step times and a
 * search loop one short, R < 1024: 1024 replicas are never tried, and the
 * huge batch, fastest on 1024, gets 512.
 * expect: FAIL: 24M parameters, 64M tokens \(a huge batch\): R = 1024 is lowest */
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
    int best = 1;
    for (int R = 2; R < 1024; R *= 2)
        if (predict_step_time(s, R) < predict_step_time(s, best)) best = R;
    return best;
}
