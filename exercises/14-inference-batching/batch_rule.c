/* exercises/14-inference-batching/batch_rule.c: exercise 14.1, the batcher's
 * decision rule.
 *
 * What it teaches: a batch amortises the weights (one forward of 32
 * requests costs a few single forwards), but every request held back to
 * fill a batch waits. Sending each request at once wastes the workers at
 * high load; waiting for a full batch breaks the latency budget at low
 * load. The rule between them: send a full batch at once, otherwise hold the
 * oldest request only while it can still be answered in time.
 *
 * Check your work:  make ex-14.1   (the server runs your rule at a light and
 * an overloaded arrival rate, beside the library's rules in the same run).
 * The answer is in solutions/14-inference-batching/batch_rule.c: try first.
 */
#include "batch_rule.h"
#include "exercise.h"

int batch_rule(const srv_batch_view *v, double *wake)
{
    /* TODO:
     *  1. A full batch waits: if v->queued >= v->max_batch, send v->max_batch.
     *  2. The oldest request must leave by its arrival + budget - service
     *     (the forward pass takes `service` after it leaves). If now is past
     *     that time, send all that wait.
     *  3. Otherwise set *wake to that time and return 0 (wait). Measure the
     *     slack from the oldest request's arrival, not from now: the rule is
     *     asked again on every arrival.
     * Then delete the lines below. */
    (void)v;
    (void)wake;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
