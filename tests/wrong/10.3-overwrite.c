/* tests/wrong/10.3-overwrite.c: exercise 10.3 with every micro-batch's
 * gradient written straight into the running sum: mlp_grad_sum overwrites
 * its output, so only the last micro-batch's gradient is left, about 1/k of
 * the update. With k = 1 it is right.
 * expect: FAIL: R = 1, k = 4: weight [0-9]+ is
 * hint: about 1/k */
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
    for (int m = 0; m < micro; m++) {
        size_t a = lo + coll_chunk_begin(hi - lo, micro, m), b = lo + coll_chunk_begin(hi - lo, micro, m + 1);
        mlp_grad_sum(s, w, x + a * (size_t)s.d, y + a * (size_t)s.o, b - a, sum, scratch);
        pw_compute(r, mlp_flops_per_sample(s) * (double)(b - a), NULL);
    }
    coll_allreduce_ring(&comm, sum, np);
    mlp_sgd(w, sum, np, lr, batch);
    pw_free(sum);
    pw_free(part);
    pw_free(scratch);
}
