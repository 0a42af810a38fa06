/* tests/wrong/11.2-runs-cluster.c: exercise 11.2 "predicted" by running the
 * checker's own simulation on the virtual cluster.
 * expect: FAIL: 11.2-runs-cluster.c calls (pw_cluster_[a-z_]+|coll_[a-z_]+|tp_[a-z_]+)\(\) */
#include "cluster.h"
#include "collectives.h"
#include "tensor_parallel.h"
#include "tp_comm.h"

#include <string.h>

typedef struct { tp_shape sh; bool sp; } job;

static void one_block(pw_rank *r, void *arg)
{
    job *j = arg;
    pw_comm c = coll_comm_cluster(r);
    tp_block_model(&c, &j->sh, j->sp);
}

static void simulate(const tp_link *k, double *secs, double *bytes)
{
    pw_cluster_config cfg = pw_cluster_defaults(k->t);
    cfg.ranks_per_node = k->t;
    cfg.intra_alpha = k->alpha;
    cfg.intra_gbs = k->gbs;
    cfg.device_gflops = 1e30;
    pw_cluster *c = pw_cluster_create(&cfg);
    job j = { { 1, (int)k->n, (int)k->h, k->t }, k->seqpar };
    pw_cluster_run(c, one_block, &j);
    *secs = pw_cluster_time(c);
    long long msgs;
    pw_cluster_traffic(c, &msgs, bytes);
    *bytes /= k->t;
    pw_cluster_destroy(c);
}

double tp_sent_bytes(const tp_link *k)
{
    double s, b;
    simulate(k, &s, &b);
    return b;
}

double tp_comm_seconds(const tp_link *k)
{
    double s, b;
    simulate(k, &s, &b);
    return s;
}
