/* tests/wrong/10.3-whole-batch.c: exercise 10.3 without the shards: every replica
 * goes through the whole global batch in its k micro-batches, then the
 * all-reduce adds R copies of the batch's gradient: R times the update.
 * expect: FAIL: R = 3, k = 1: weight [0-9]+ is
 * hint: about R */
#include "accumulate.h"
#include "collectives.h"
#include "util.h"

void accumulate_step(pw_rank *r, mlp_shape s, float *w, const float *x, const float *y,
                     size_t batch, int micro, float lr)
{
    int R = pw_rank_size(r), me = pw_rank_id(r);
    size_t np = mlp_nparams(s);
    size_t lo = coll_chunk_begin(batch, R, me), hi = coll_chunk_begin(batch, R, me + 1);
    float *sum = pw_alloc_floats(np), *part = pw_alloc_floats(np);
    float *scratch = pw_alloc_floats((size_t)(s.k + s.o));
    pw_comm comm = coll_comm_cluster(r);
    (void)lo; (void)hi;
    for (size_t i = 0; i < np; i++) sum[i] = 0;
    for (int m = 0; m < micro; m++) {
        size_t a = coll_chunk_begin(batch, micro, m), b = coll_chunk_begin(batch, micro, m + 1);
        mlp_grad_sum(s, w, x + a * (size_t)s.d, y + a * (size_t)s.o, b - a, part, scratch);
        for (size_t i = 0; i < np; i++) sum[i] += part[i];
        pw_compute(r, mlp_flops_per_sample(s) * (double)(b - a), NULL);
    }
    coll_allreduce_ring(&comm, sum, np);
    mlp_sgd(w, sum, np, lr, batch);
    pw_free(sum);
    pw_free(part);
    pw_free(scratch);
}
