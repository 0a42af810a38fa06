/* tests/wrong/10.2-half-ring.c: exercise 10.2 with the ring's time counted
 * once, (R-1)(alpha + (n/R) beta): the reduce-scatter without the
 * all-gather that follows it, half of the all-reduce.
 * expect: FAIL: 24M parameters, 512K tokens \(the chapter's job\), R = 2: you predict
 * hint: that is half the ring */
#include "best_replicas.h"

double predict_step_time(const dp_setting *s, int R)
{
    double compute = 6.0 * s->params * (s->tokens / R) / (s->device_gflops * 1e9);
    if (R == 1) return compute;
    int one_node = R <= s->ranks_per_node;
    double alpha = one_node ? s->intra_alpha : s->inter_alpha;
    double beta = 1.0 / ((one_node ? s->intra_gbs : s->inter_gbs) * 1e9);
    return compute + (R - 1) * (alpha + 4.0 * s->params / R * beta);
}

int best_replicas(const dp_setting *s)
{
    int best = 1;
    for (int R = 2; R <= 1024; R *= 2)
        if (predict_step_time(s, R) < predict_step_time(s, best)) best = R;
    return best;
}
