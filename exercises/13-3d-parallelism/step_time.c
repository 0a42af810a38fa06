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
 * The task: the closed form of step_time.h, written with the links each
 * term really uses.
 *
 * The interface (step_time.h, which gives the formula and the helpers you
 * may call):
 *   double step_time(const p3_work *w, const p3_cluster *cl, const p3_config *cf, double rate);
 *   - seconds; GPipe's timeline, nothing overlapped;
 *   - a group (tensor, data, or one pipeline hop) whose ranks sit on more
 *     than one node pays the network's alpha and bandwidth, else NVLink's;
 *     beta is 1 / (GB/s x 1e9) s/byte;
 *   - not p3_time_model, which is the answer.
 *
 * What the checker tries (check_step_time.c): GPT-3 175B and Llama-2-70B
 * on 1024 devices, t from 1 to 16 (16: a tensor group over two nodes), p
 * from 1 to 32, both mappings, against p3_time_model to 1e-9 relative; then
 * GPipe runs of real data on the virtual cluster, d x t x p = 2x2x2, 1x4x2,
 * 2x2x4, 4x2x2 pipeline-first and 1x8x8, whose modelled time your formula
 * must predict to 1e-9 relative.
 *
 *   make ex-13.2      grade this file (each failure is explained)
 *   make hint-13.2    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/13-3d-parallelism/step_time.c: try first.
 */
#include "step_time.h"
#include "exercise.h"

double step_time(const p3_work *w, const p3_cluster *cl, const p3_config *cf, double rate)
{
    /* TODO: the step's time. Then delete the placeholder lines below. */
    (void)w;
    (void)cl;
    (void)cf;
    (void)rate;
    PW_NOT_YET_IMPLEMENTED();
}
