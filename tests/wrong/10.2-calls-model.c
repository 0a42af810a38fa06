/* tests/wrong/10.2-calls-model.c: exercise 10.2 with the ring's time taken
 * from the library's own model, coll_model_ring (kernels/collectives.c),
 * which is the answer. The step times and the best R are right.
 * expect: FAIL: 10.2-calls-model.c calls coll_model_ring\(\) */
#include "best_replicas.h"
#include "collectives.h"

double predict_step_time(const dp_setting *s, int R)
{
    double compute = 6.0 * s->params * (s->tokens / R) / (s->device_gflops * 1e9);
    if (R == 1) return compute;
    int one_node = R <= s->ranks_per_node;
    double alpha = one_node ? s->intra_alpha : s->inter_alpha;
    double beta = 1.0 / ((one_node ? s->intra_gbs : s->inter_gbs) * 1e9);
    return compute + coll_model_ring(R, (size_t)s->params, 4, alpha, beta);
}

int best_replicas(const dp_setting *s)
{
    int best = 1;
    for (int R = 2; R <= 1024; R *= 2)
        if (predict_step_time(s, R) < predict_step_time(s, best)) best = R;
    return best;
}
