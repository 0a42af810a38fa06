/* exercises/10-data-parallel/best_replicas.c: exercise 10.2, predict from the
 * model how many replicas make the fastest training step.
 *
 * What it teaches: strong scaling has a best size. With the global batch
 * fixed, compute per replica shrinks as 1/R, while the ring all-reduce of the
 * gradients does not shrink: its bandwidth term stays near 2 n beta and its
 * latency term 2(R-1) alpha grows. The step time C/R + ring(R) falls, bottoms
 * out and rises again: past the minimum more devices make training slower.
 * No simulation needed to find it: the model says where.
 *
 * Check your work:  make ex-10.2   (six settings; your predicted step times
 * against the virtual cluster's simulation for every R, then your best R
 * against the simulation's).
 * The answer is in solutions/10-data-parallel/best_replicas.c: try first.
 */
#include "best_replicas.h"
#include "exercise.h"

double predict_step_time(const dp_setting *s, int R)
{
    /* TODO: the step time on R replicas.
     *  1. Compute: 6 * params * (tokens / R) flops at device_gflops * 1e9 flop/s.
     *  2. With R = 1 there is nothing to all-reduce: the step is the compute.
     *  3. Otherwise the ring all-reduce of n = 4 * params bytes on R ranks:
     *     2(R-1) messages one after the other, each of a chunk of n / R bytes,
     *     each costing alpha + (n / R) * beta, beta = 1 / (GB/s * 1e9) s/byte.
     *  4. Which link: R <= ranks_per_node fits in one node (intra_*);
     *     more replicas span nodes, and every ring step waits for its
     *     slowest link, so the whole ring runs at the inter-node alpha, beta.
     * Then delete the lines below. */
    (void)s;
    (void)R;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}

int best_replicas(const dp_setting *s)
{
    /* TODO: the R in 1, 2, 4, ..., 1024 with the lowest predict_step_time.
     * (Rounding sqrt(C / 2 alpha), the minimum of C/R + 2 R alpha, to a power
     * of two is close, but misses where the link changes at the node size.)
     * Then delete the lines below. */
    (void)s;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
