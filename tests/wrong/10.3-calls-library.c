/* tests/wrong/10.3-calls-library.c: exercise 10.3 answered by the
 * workbook's own data-parallel trainer, dp_replica (kernels/dp_train.c),
 * run for one step with the ring and k micro-batches: the weights and the
 * messages are right, and none of it is the learner's.
 * expect: FAIL: 10.3-calls-library.c calls dp_replica\(\) */
#include "accumulate.h"
#include "dp_train.h"

void accumulate_step(pw_rank *r, mlp_shape s, float *w, const float *x, const float *y,
                     size_t batch, int micro, float lr)
{
    pw_comm comm = coll_comm_cluster(r);
    dp_job j = { s, x, y, batch, 1, lr, micro, coll_allreduce_ring };
    dp_replica(&comm, &j, w, NULL, NULL);
}
