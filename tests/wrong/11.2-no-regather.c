/* tests/wrong/11.2-no-regather.c: exercise 11.2 that takes sequence
 * parallelism to cost exactly what the all-reduces it replaces cost,
 * forgetting the two all-gathers of the backward pass.
 * expect: FAIL: t = 2 with sequence parallelism: tp_sent_bytes says
 * hint: two extra all-gathers: the backward pass */
#include "tp_comm.h"

double tp_sent_bytes(const tp_link *k)
{
    return 8.0 * (k->t - 1) * 4.0 * k->n * k->h / k->t;
}

double tp_comm_seconds(const tp_link *k)
{
    double chunk = 4.0 * k->n * k->h / k->t;
    return 8.0 * (k->t - 1) * (k->alpha + chunk / (k->gbs * 1e9));
}
