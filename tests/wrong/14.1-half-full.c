/* tests/wrong/14.1-half-full.c: exercise 14.1 sending as soon as half a
 * batch waits, and otherwise holding the oldest request until arrival +
 * budget - service: in time everywhere, batched at light load, keeps up
 * under overload; but where a full batch gathers well within the slack
 * (3200 requests/s: 32 in 10 ms of 19.4) it sends batches of 16 where the
 * rule asked for sends them full, and each forward serves half as many.
 * expect: FAIL: medium load: your batches held 1[0-9]\.[0-9] requests on average
 * hint: send a batch before it is full only when the oldest request's slack runs out */
#include "batch_rule.h"

int batch_rule(const srv_batch_view *v, double *wake)
{
    if (v->queued >= v->max_batch / 2)   /* the mistake: half a batch is not a full one */
        return v->queued < v->max_batch ? v->queued : v->max_batch;
    double leave_by = v->oldest + v->budget - v->service;
    if (v->now >= leave_by) return v->queued;
    *wake = leave_by;
    return 0;
}
