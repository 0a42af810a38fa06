/* tests/wrong/10.1-calls-library.c: exercise 10.1 answered by the
 * library's own ring all-reduce. Sums, bits and modelled time are right.
 * expect: FAIL: 10.1-calls-library.c calls coll_allreduce_ring\(\) */
#include "collectives.h"
#include "ring_allreduce.h"

void ring_allreduce(pw_rank *r, float *buf, size_t n)
{
    pw_comm c = coll_comm_cluster(r);
    coll_allreduce_ring(&c, buf, n);
}
