/* tests/wrong/14.1-slack-from-now.c: exercise 14.1 with the slack measured
 * from now instead of from the oldest request's arrival: every arrival
 * moves the deadline on, so at light load the batch waits until it is full.
 * expect: FAIL: your rule held a batch [0-9.]+ ms
 * hint: counts from its arrival */
#include "batch_rule.h"

int batch_rule(const srv_batch_view *v, double *wake)
{
    if (v->queued >= v->max_batch) return v->max_batch;
    double leave_by = v->now + v->budget - v->service;
    if (v->now >= leave_by) return v->queued;
    *wake = leave_by;
    return 0;
}
