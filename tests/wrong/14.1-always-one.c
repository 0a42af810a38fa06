/* tests/wrong/14.1-always-one.c: exercise 14.1 answered with no batching at
 * all: within the budget always, but a batch of one wastes the weights.
 * expect: FAIL: your batches held 1\.[0-9] requests on average
 * hint: wastes the batch */
#include "batch_rule.h"

int batch_rule(const srv_batch_view *v, double *wake)
{
    (void)v;
    (void)wake;
    return 1;
}
