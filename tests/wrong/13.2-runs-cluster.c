/* tests/wrong/13.2-runs-cluster.c: exercise 13.2 answered by running the
 * virtual cluster instead of predicting it: the measurement is the
 * checker's, the formula is the exercise.
 * expect: FAIL: 13.2-runs-cluster.c calls pw_cluster_create\(\) */
#include "step_time.h"
#include "cluster.h"

double step_time(const p3_work *w, const p3_cluster *cl, const p3_config *cf, double rate)
{
    (void)w; (void)rate;
    pw_cluster_config cc = pw_cluster_defaults(cf->d * cf->t * cf->p);
    cc.ranks_per_node = cl->per_node;
    pw_cluster *c = pw_cluster_create(&cc);
    double t = pw_cluster_time(c);
    pw_cluster_destroy(c);
    return t;
}
