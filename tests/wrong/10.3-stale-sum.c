/* tests/wrong/10.3-stale-sum.c: exercise 10.3 with the gradient sum kept
 * in a buffer that is zeroed once, on the first call, and never again: step
 * 2 adds its gradient onto step 1's all-reduced sum, and so on. The first
 * update is right; every later one carries all the earlier ones.
 * expect: FAIL: R = 1, k = 1: weight [0-9]+ is
 * hint: the first step is right */
#include <stdlib.h>

#include "accumulate.h"
#include "collectives.h"
#include "util.h"

void accumulate_step(pw_rank *r, mlp_shape s, float *w, const float *x, const float *y,
                     size_t batch, int micro, float lr)
{
    /* one buffer per rank, up to 16 ranks, kept from step to step */
    static float *sums[16];
    static size_t sum_len[16];
    int R = pw_rank_size(r), me = pw_rank_id(r);
    size_t np = mlp_nparams(s);
    size_t lo = coll_chunk_begin(batch, R, me), hi = coll_chunk_begin(batch, R, me + 1);
    if (sum_len[me] != np) {
        free(sums[me]);
        sums[me] = calloc(np, sizeof(float));
        sum_len[me] = np;
    }
    float *sum = sums[me], *part = pw_alloc_floats(np);
    float *scratch = pw_alloc_floats((size_t)(s.k + s.o));
    for (int m = 0; m < micro; m++) {
        size_t a = lo + coll_chunk_begin(hi - lo, micro, m), b = lo + coll_chunk_begin(hi - lo, micro, m + 1);
        mlp_grad_sum(s, w, x + a * (size_t)s.d, y + a * (size_t)s.o, b - a, part, scratch);
        for (size_t i = 0; i < np; i++) sum[i] += part[i];
        pw_compute(r, mlp_flops_per_sample(s) * (double)(b - a), NULL);
    }
    pw_comm comm = coll_comm_cluster(r);
    coll_allreduce_ring(&comm, sum, np);
    mlp_sgd(w, sum, np, lr, batch);
    pw_free(part);
    pw_free(scratch);
}
