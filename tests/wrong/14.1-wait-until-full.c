/* tests/wrong/14.1-wait-until-full.c: exercise 14.1 answered by always
 * waiting for a full batch: at light load the first request waits for 31
 * more, far past its budget.
 * expect: FAIL: your rule held a batch [0-9.]+ ms
 * hint: waits to be full */
#include "batch_rule.h"

int batch_rule(const srv_batch_view *v, double *wake)
{
    if (v->queued >= v->max_batch) return v->max_batch;
    *wake = v->now + 1;
    return 0;
}
