/* tests/wrong/10.2-whole-gradient.c: exercise 10.2 with every one of the
 * ring's 2(R-1) messages carrying the whole gradient, 4P bytes, instead of
 * one chunk of 4P/R: R times the ring's bandwidth term.
 * expect: FAIL: 24M parameters, 512K tokens \(the chapter's job\), R = 2: you predict
 * hint: carries one chunk, 4P/R bytes, not the whole gradient */
#include "best_replicas.h"

double predict_step_time(const dp_setting *s, int R)
{
    double compute = 6.0 * s->params * (s->tokens / R) / (s->device_gflops * 1e9);
    if (R == 1) return compute;
    int one_node = R <= s->ranks_per_node;
    double alpha = one_node ? s->intra_alpha : s->inter_alpha;
    double beta = 1.0 / ((one_node ? s->intra_gbs : s->inter_gbs) * 1e9);
    return compute + 2.0 * (R - 1) * (alpha + 4.0 * s->params * beta);
}

int best_replicas(const dp_setting *s)
{
    int best = 1;
    for (int R = 2; R <= 1024; R *= 2)
        if (predict_step_time(s, R) < predict_step_time(s, best)) best = R;
    return best;
}
