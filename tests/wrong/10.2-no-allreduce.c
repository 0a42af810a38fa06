/* tests/wrong/10.2-no-allreduce.c: exercise 10.2 with the step time being the
 * compute alone: the all-reduce of the gradients is left out, so the step
 * keeps falling as 1/R and the "best" is always the largest R.
 * expect: FAIL: 24M parameters, 512K tokens \(the chapter's job\), R = 2: you predict
 * hint: you left out the all-reduce */
#include "best_replicas.h"

double predict_step_time(const dp_setting *s, int R)
{
    return 6.0 * s->params * (s->tokens / R) / (s->device_gflops * 1e9);
}

int best_replicas(const dp_setting *s)
{
    int best = 1;
    for (int R = 2; R <= 1024; R *= 2)
        if (predict_step_time(s, R) < predict_step_time(s, best)) best = R;
    return best;
}
