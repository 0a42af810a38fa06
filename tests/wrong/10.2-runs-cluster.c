/* tests/wrong/10.2-runs-cluster.c: exercise 10.2 "predicted" by running the
 * checker's own simulation on the virtual cluster (and the library's ring).
 * expect: FAIL: 10.2-runs-cluster.c calls (pw_cluster_[a-z_]+|coll_[a-z_]+)\(\) */
#include "best_replicas.h"
#include "cluster.h"
#include "collectives.h"

typedef struct { double params, flops; } job;

static void one_step(pw_rank *r, void *arg)
{
    job *j = arg;
    pw_comm comm = coll_comm_cluster(r);
    pw_compute(r, j->flops, NULL);
    if (pw_rank_size(r) > 1) coll_allreduce_ring(&comm, NULL, (size_t)j->params);
}

double predict_step_time(const dp_setting *s, int R)
{
    pw_cluster_config cfg = pw_cluster_defaults(R);
    cfg.ranks_per_node = s->ranks_per_node < R ? s->ranks_per_node : R;
    cfg.device_gflops = s->device_gflops;
    cfg.intra_alpha = s->intra_alpha;
    cfg.intra_gbs = s->intra_gbs;
    cfg.inter_alpha = s->inter_alpha;
    cfg.inter_gbs = s->inter_gbs;
    job j = { s->params, 6 * s->params * s->tokens / R };
    pw_cluster *c = pw_cluster_create(&cfg);
    pw_cluster_run(c, one_step, &j);
    double t = pw_cluster_time(c);
    pw_cluster_destroy(c);
    return t;
}

int best_replicas(const dp_setting *s)
{
    int best = 1;
    for (int R = 2; R <= 1024; R *= 2)
        if (predict_step_time(s, R) < predict_step_time(s, best)) best = R;
    return best;
}
