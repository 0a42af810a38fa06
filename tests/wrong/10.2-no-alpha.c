/* tests/wrong/10.2-no-alpha.c: exercise 10.2 with the ring's latency left
 * out: 2 messages of n/R bytes, each costing only bytes x beta. Then
 * the all-reduce never grows with R, and a large R never looks bad.
 * expect: FAIL: 24M parameters, 512K tokens \(the chapter's job\), R = 2: you predict
 * hint: the ring's latency is missing */
#include "best_replicas.h"

double predict_step_time(const dp_setting *s, int R)
{
    double compute = 6.0 * s->params * (s->tokens / R) / (s->device_gflops * 1e9);
    if (R == 1) return compute;
    int one_node = R <= s->ranks_per_node;
    double beta = 1.0 / ((one_node ? s->intra_gbs : s->inter_gbs) * 1e9);
    return compute + 2.0 * (R - 1) * (4.0 * s->params / R * beta);
}

int best_replicas(const dp_setting *s)
{
    int best = 1;
    for (int R = 2; R <= 1024; R *= 2)
        if (predict_step_time(s, R) < predict_step_time(s, best)) best = R;
    return best;
}
