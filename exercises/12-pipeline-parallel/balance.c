/* exercises/12-pipeline-parallel/balance.c: exercise 12.2, split the layers
 * of a model into pipeline stages so that the slowest stage is as fast as
 * it can be.
 *
 * What it teaches: a pipeline runs at the pace of its slowest stage. GPipe's
 * step takes sum_s c_s + (m-1) max_s c_s (chapters/12-pipeline-parallel/
 * unbalanced.c): for many micro-batches, m times the heaviest stage. The
 * total work is fixed; only the heaviest stage is yours to make light.
 * Equal layer counts are not equal work when layers differ in width.
 *
 * Check your work:  make ex-12.2   (eight models: equal layers, a wide
 * block, growing widths, one huge layer, random widths, as many stages as
 * layers, one stage; your heaviest stage against the best possible, then
 * GPipe's modelled step with your split on the virtual cluster).
 * The answer is in solutions/12-pipeline-parallel/balance.c: try first.
 */
#include "balance.h"
#include "exercise.h"

void balance_layers(const double *cost, int L, int S, int *first)
{
    /* TODO: first[0..S], consecutive stages, none empty, the heaviest as
     * light as possible. Two ways that work:
     *  - dynamic programming: best[k][i], the lightest heaviest stage for
     *    layers 0..i-1 on k stages, is the least over j of
     *    max(best[k-1][j], cost of layers j..i-1); remember the j;
     *  - or search the answer: for a limit T, walk the layers and open a new
     *    stage whenever the next layer would push the current one past T;
     *    T is feasible when that needs at most S stages. The smallest
     *    feasible T is a sum of consecutive costs: try those. The walk may
     *    use fewer than S stages: split its stages further until there are
     *    S, none empty (splitting never makes a stage heavier).
     * Filling each stage up to the average (total / S) is not enough: a
     * check model is built to catch it. Then delete the lines below. */
    (void)cost;
    (void)L;
    (void)S;
    (void)first;
    PW_NOT_YET_IMPLEMENTED();
}
