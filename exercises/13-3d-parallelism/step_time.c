/* exercises/13-3d-parallelism/step_time.c: exercise 13.2, the step time of
 * one 3D mapping, in closed form.
 *
 * What it teaches: a step is the pipeline's span plus the data-parallel
 * all-reduce; the span is (m + p - 1) micro-batch slots of compute and
 * tensor all-reduces, plus the messages between stages. Where the groups
 * sit decides which link each term pays: tensor groups inside a node pay
 * NVLink's 450 GB/s, across nodes the network's 50 GB/s, for the most
 * frequent collective of the step.
 *
 * Check your work:  make ex-13.2   (the planner's formula on GPT-3 and
 * Llama-2 configurations in both mappings, then composed GPipe runs of
 * real data on the virtual cluster, which your formula must predict
 * exactly).
 * The answer is in solutions/13-3d-parallelism/step_time.c: try first.
 */
#include "step_time.h"
#include "exercise.h"

double step_time(const p3_work *w, const p3_cluster *cl, const p3_config *cf, double rate)
{
    /* TODO:
     *  1. the links: alpha and beta = 1 / (GB/s x 1e9) of the tensor group,
     *     the data group (p3_group_crosses), and of each pipeline hop
     *     between stage s and s + 1 (p3_rank_of(cf, 0, 0, s): same node?);
     *  2. t_F = f_flops / rate + tp_f ring all-reduces (coll_model_ring),
     *     t_B likewise; c of a hop = alpha + pp_elems x elem_bytes x beta;
     *  3. (m + p - 1)(t_F + t_B) + 2 sum c + 2 (m - 1) max c + the DP ring.
     * Then delete the lines below. */
    (void)w;
    (void)cl;
    (void)cf;
    (void)rate;
    PW_NOT_YET_IMPLEMENTED();
}
