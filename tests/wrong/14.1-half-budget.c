/* tests/wrong/14.1-half-budget.c: exercise 14.1 holding every batch that
 * is not full for half the budget from the oldest arrival, whatever the
 * forward pass costs: a full batch leaves at once, and with a forward of
 * 0.6 ms in a budget of 20 ms the answers are in time and batched. With a
 * large model (12 ms for 1 request, 16 ms for 32) a batch that leaves at
 * 10 ms is answered 22 ms or more after its oldest request arrived: the
 * slack is budget - service, not budget / 2.
 * expect: FAIL: a large model, light load: a batch of [0-9]+ was answered [0-9.]+ ms
 * hint: leave by the oldest arrival \+ budget - service */
#include "batch_rule.h"

int batch_rule(const srv_batch_view *v, double *wake)
{
    if (v->queued >= v->max_batch) return v->max_batch;
    double leave_by = v->oldest + v->budget / 2;   /* the mistake: ignores v->service */
    if (v->now >= leave_by) return v->queued;
    *wake = leave_by;
    return 0;
}
