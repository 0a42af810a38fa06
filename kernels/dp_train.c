/* kernels/dp_train.c: data-parallel SGD on a pw_comm (dp_train.h). */
#include "dp_train.h"
#include "util.h"

#include <string.h>

void dp_replica(pw_comm *comm, const dp_job *j, float *w, double *loss, double *step_s)
{
    int R = comm->size, me = comm->rank;
    size_t np = mlp_nparams(j->s);
    float *g = pw_alloc_floats(np + 1), *part = pw_alloc_floats(np);
    float *scratch = pw_alloc_floats((size_t)(j->s.k + j->s.o));
    size_t lo = coll_chunk_begin(j->batch, R, me), hi = coll_chunk_begin(j->batch, R, me + 1);
    for (int step = 0; step < j->steps; step++) {
        double t0 = coll_now(comm);
        size_t base = (size_t)step * j->batch;
        memset(g, 0, (np + 1) * sizeof *g);
        for (int m = 0; m < j->micro; m++) {
            /* micro-batch m of this shard, summed into g */
            size_t a = lo + coll_chunk_begin(hi - lo, j->micro, m), b = lo + coll_chunk_begin(hi - lo, j->micro, m + 1);
            double l = mlp_grad_sum(j->s, w, j->x + (base + a) * j->s.d, j->y + (base + a) * j->s.o, b - a, part, scratch);
            for (size_t i = 0; i < np; i++) g[i] += part[i];
            g[np] += (float)l;
            coll_compute(comm, mlp_flops_per_sample(j->s) * (double)(b - a), NULL);
        }
        j->allreduce(comm, g, np + 1);
        mlp_sgd(w, g, np, j->lr, j->batch);
        if (loss) loss[step] = g[np] / (double)j->batch;
        if (step_s) step_s[step] = coll_now(comm) - t0;
    }
    pw_free(g);
    pw_free(part);
    pw_free(scratch);
}

void dp_one_device(const dp_job *j, float *w, double *loss)
{
    size_t np = mlp_nparams(j->s);
    float *g = pw_alloc_floats(np), *scratch = pw_alloc_floats((size_t)(j->s.k + j->s.o));
    for (int step = 0; step < j->steps; step++) {
        size_t base = (size_t)step * j->batch;
        double l = mlp_grad_sum(j->s, w, j->x + base * j->s.d, j->y + base * j->s.o, j->batch, g, scratch);
        if (loss) loss[step] = l / (double)j->batch;
        mlp_sgd(w, g, np, j->lr, j->batch);
    }
    pw_free(g);
    pw_free(scratch);
}
