/* exercises/10-data-parallel/best_replicas.c: exercise 10.2, predict from the
 * model how many replicas make the fastest training step.
 *
 * The task: write the modelled time of one data-parallel training step on R
 * replicas, then find the R with the lowest. Why it is a lesson: strong
 * scaling has a best size. With the global batch fixed, each replica's
 * compute shrinks as 1/R, while the ring all-reduce of the gradients does
 * not: its bandwidth term stays near twice the gradient bytes, its latency
 * term grows with R, and it jumps when the ring leaves one node for the
 * slower network. The step time falls, bottoms out, and rises again: past
 * the minimum more devices make training slower. The model says where,
 * without running anything.
 *
 * The interface (best_replicas.h, which documents every field of dp_setting):
 *   double predict_step_time(const dp_setting *s, int R);
 *     - seconds, for R a power of two from 1 to 1024;
 *     - compute: forward + backward cost 6 flops per parameter per token, on
 *       tokens / R tokens, at device_gflops (1e9 flop/s);
 *     - communication: the ring all-reduce of the gradients (4-byte floats)
 *       over the R replicas, as chapter 10 models it (alpha + bytes * beta
 *       per message, beta from the link's GB/s = 1e9 bytes/s); R = 1 has none;
 *     - the link: one node holds ranks_per_node devices; a ring that spans
 *       nodes waits at every step for its slowest link;
 *     - it must equal the virtual cluster's simulation (to 1e-9).
 *   int best_replicas(const dp_setting *s);
 *     - the R in 1, 2, 4, ..., 1024 with the lowest predicted step time.
 *
 * What the checker tries (check_best_replicas.c): seven settings (the
 * chapter's 24M-parameter job, a 1M-parameter model, a huge batch, a slow
 * network, a step too small to split, nodes of 4 with faster devices, and a
 * job whose step time dips at one node, rises on two, then falls again);
 * for each, your prediction against the simulated step for every R, then
 * your best R against the simulation's (a neighbouring power of two within
 * 3% of the lowest also passes: near the minimum the curve is flat).
 *
 *   make ex-10.2      grade this file (each failure is explained)
 *   make hint-10.2    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/10-data-parallel/best_replicas.c: try first.
 */
#include "best_replicas.h"
#include "exercise.h"

double predict_step_time(const dp_setting *s, int R)
{
    /* TODO: compute plus communication. Then delete the placeholder lines below. */
    (void)s;
    (void)R;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}

int best_replicas(const dp_setting *s)
{
    /* TODO: the search. Then delete the placeholder lines below. */
    (void)s;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
