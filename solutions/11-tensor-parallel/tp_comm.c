/* solutions/11-tensor-parallel/tp_comm.c: a solution of exercise 11.2.
 *
 * Added to the skeleton: the ring steps of one block (4 all-reduces of
 * 2(t-1) steps; sequence parallelism: 10 (t-1) steps, its reduce-scatters
 * and all-gathers plus the two re-gathers), each a chunk of 4 n h / t bytes
 * costing alpha + chunk beta. The same rule the virtual cluster applies
 * (common/cluster/cluster.h), so the prediction equals the simulation to rounding.
 * Graded by: make solution-11.2
 */
#include "tp_comm.h"

static double ring_steps(const tp_link *k)                                             /* added */
{
    return (k->seqpar ? 10.0 : 8.0) * (k->t - 1);                                      /* added */
}

double tp_sent_bytes(const tp_link *k)
{
    return ring_steps(k) * 4.0 * k->n * k->h / k->t;                                   /* added */
}

double tp_comm_seconds(const tp_link *k)
{
    double chunk = 4.0 * k->n * k->h / k->t;                                           /* added: bytes per step */
    return ring_steps(k) * (k->alpha + chunk / (k->gbs * 1e9));                        /* added */
}
