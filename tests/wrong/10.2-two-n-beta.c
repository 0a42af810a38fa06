/* tests/wrong/10.2-two-n-beta.c: exercise 10.2 with the ring's bandwidth term
 * taken as 2 n beta, the large-R limit of 2 (R-1)/R n beta: right in the
 * limit, a factor R/(R-1) too big at small R (twice the truth at R = 2).
 * expect: FAIL: 24M parameters, 512K tokens \(the chapter's job\), R = 2: you predict
 * hint: 2\(R-1\) alpha \+ 2 n beta is the large-R approximation */
#include "best_replicas.h"

double predict_step_time(const dp_setting *s, int R)
{
    double compute = 6.0 * s->params * (s->tokens / R) / (s->device_gflops * 1e9);
    if (R == 1) return compute;
    int one_node = R <= s->ranks_per_node;
    double alpha = one_node ? s->intra_alpha : s->inter_alpha;
    double beta = 1.0 / ((one_node ? s->intra_gbs : s->inter_gbs) * 1e9);
    return compute + 2.0 * (R - 1) * alpha + 2.0 * 4.0 * s->params * beta;
}

int best_replicas(const dp_setting *s)
{
    int best = 1;
    for (int R = 2; R <= 1024; R *= 2)
        if (predict_step_time(s, R) < predict_step_time(s, best)) best = R;
    return best;
}
