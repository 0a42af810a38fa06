/* tests/wrong/10.2-first-rise.c: exercise 10.2 with right step times and a
 * search that stops at the first R whose step is slower than the one
 * before. In the job whose step dips at one node, rises on two and falls
 * again further on, it answers 8 where 64 is fastest.
 * expect: FAIL: 24M parameters, 32K tokens \(a dip at one node\): R = 64 is lowest
 * hint: a local minimum */
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
    int R = 1;
    while (R < 1024 && predict_step_time(s, 2 * R) < predict_step_time(s, R)) R *= 2;
    return R;
}
