/* tests/wrong/10.3-drops-remainder.c: exercise 10.3 with micro-batches of
 * (hi - lo) / k samples each, rounded down: when k does not divide the
 * shard, its last (hi - lo) mod k samples are never seen (101 on one
 * replica in 4 micro-batches of 25: sample 100 is lost every step).
 * expect: FAIL: R = 1, k = 4: weight [0-9]+ is */
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
    size_t len = (hi - lo) / (size_t)micro;
    for (size_t i = 0; i < np; i++) sum[i] = 0;
    for (int m = 0; m < micro; m++) {
        size_t a = lo + (size_t)m * len;
        mlp_grad_sum(s, w, x + a * (size_t)s.d, y + a * (size_t)s.o, len, part, scratch);
        for (size_t i = 0; i < np; i++) sum[i] += part[i];
        pw_compute(r, mlp_flops_per_sample(s) * (double)len, NULL);
    }
    coll_allreduce_ring(&comm, sum, np);
    mlp_sgd(w, sum, np, lr, batch);
    pw_free(sum);
    pw_free(part);
    pw_free(scratch);
}
