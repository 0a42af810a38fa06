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
 * The task: that rule, as the function the server asks on every event.
 *
 * The interface (batch_rule.h, which lists the fields of the view):
 *   int batch_rule(const srv_batch_view *v, double *wake);
 *   - called when a worker is free and at least one request waits, again on
 *     every arrival, and at the time you asked for;
 *   - return how many to send now (1 .. min(queued, max_batch)), or 0 to
 *     wait, and then set *wake to the absolute time to be asked again;
 *   - a batch that leaves still takes `service` seconds before its
 *     requests are answered; and since the rule is asked again on every
 *     arrival, the waiting is measured from the oldest request's arrival,
 *     not from now.
 *
 * What the checker tries (check_batch_rule.c): a simulation of the server
 * of kernels/server.c in modelled time, so a busy machine grades the same
 * (2 workers, batches of up to 32, budget 20 ms, queue 128, a forward of
 * 150 us for 1 request to 600 us for 32, seeded Poisson arrivals), asking
 * your rule exactly as the server does. With your rule and the library's
 * on the same arrivals: at a light load (160 requests/s: never hold a batch
 * past the budget, 99% answered within it, yet a mean batch at least half
 * the library budget rule's), at a medium load (3200 requests/s: a full
 * batch gathers in time, so batches must be nearly full), with a large
 * model (a forward of 12 to 16 ms of the 20 ms budget: no batch may be
 * answered late) and at 3x the unbatched capacity (throughput at least 60%
 * of the better library rule's). A count out of range, a wait
 * with no wake-up time after now, or a batch kept past 4 budgets + 0.5 s
 * fails.
 *
 *   make ex-14.1      grade this file (each failure is explained)
 *   make hint-14.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/14-inference-batching/batch_rule.c: try first.
 */
#include "batch_rule.h"
#include "exercise.h"

int batch_rule(const srv_batch_view *v, double *wake)
{
    /* TODO: the decision. Then delete the placeholder lines below. */
    (void)v;
    (void)wake;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
