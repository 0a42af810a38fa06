/* solutions/14-inference-batching/batch_rule.c: exercise 14.1's answer.
 * A full batch leaves at once; otherwise the oldest request is held until
 * arrival + budget - service, the last moment that still answers it within
 * the budget, and the rule is asked again on every arrival (the batch may
 * fill first). */
#include "batch_rule.h"

int batch_rule(const srv_batch_view *v, double *wake)
{
    if (v->queued >= v->max_batch) return v->max_batch;
    double leave_by = v->oldest + v->budget - v->service;
    if (v->now >= leave_by) return v->queued;
    *wake = leave_by;
    return 0;
}
