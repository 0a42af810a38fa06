/* kernels/zero_train.c: the sharded training step of kernels/zero.h
 * (zero_replica on a pw_comm, and its one-device reference); the formulas
 * and Adam are in zero.c, which the planner of chapter 13 links alone. */
#include "zero.h"
#include "util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- counting what a rank sends ----------------------------------------------- */

/* A pw_comm that forwards to the transport's send and adds up the bytes.
 * The collectives call c->send(c, ...) with this very struct's first member,
 * so the cast back is safe; ctx and the rest are the transport's own. */
typedef struct {
    pw_comm c;
    void (*send)(pw_comm *c, int dst, int tag, const void *buf, size_t bytes);
    double bytes;
} counting_comm;

static void counting_send(pw_comm *c, int dst, int tag, const void *buf, size_t bytes)
{
    counting_comm *k = (counting_comm *)c;
    k->bytes += (double)bytes;
    k->send(c, dst, tag, buf, bytes);
}

/* An allocation of n floats, counted into *kind. */
static float *held(size_t n, double *kind)
{
    *kind += (double)n * sizeof(float);
    return pw_alloc_floats(n);
}

/* The full weights from each rank's chunk: copy own chunk in, ring all-gather. */
static void gather_weights(pw_comm *c, float *full, const float *mine, size_t lo, size_t hi, size_t np)
{
    memcpy(full + lo, mine, (hi - lo) * sizeof *full);
    coll_allgather_ring(c, full, np);
}

void zero_replica(pw_comm *comm, const zero_job *j, int stage, const float *w0, float *w_out,
                  zero_rank_report *rep, int fault)
{
    counting_comm k = { *comm, comm->send, 0 };
    k.c.send = counting_send;
    pw_comm *c = &k.c;
    int d = c->size, me = c->rank;
    size_t np = mlp_nparams(j->s);
    int own = coll_rs_owned_chunk(me, d);
    size_t lo = stage == 0 ? 0 : coll_chunk_begin(np, d, own), hi = stage == 0 ? np : coll_chunk_begin(np, d, own + 1);
    size_t nl = hi - lo;
    size_t slo = coll_chunk_begin(j->batch, d, me), shi = coll_chunk_begin(j->batch, d, me + 1), ns = shi - slo;
    double fl = mlp_flops_per_sample(j->s) * (double)ns;
    zero_rank_report r = { 0, 0, 0, 0, 0, lo, hi };

    /* What the rank keeps for the whole run, by stage:
     *            weights   gradients   Adam m, v
     *   0        np        np          2 np
     *   1        np        np          2 nl
     *   2        np        nl          2 nl
     *   3        nl        nl          2 nl       (nl: its chunk, about np / d) */
    float *w = held(stage >= 3 ? nl : np, &r.weights);
    float *g = held(stage >= 2 ? nl : np, &r.grads);
    float *m = held(nl, &r.optimizer), *v = held(nl, &r.optimizer);
    float *scratch = pw_alloc_floats((size_t)(j->s.k + j->s.o));   /* activations of one sample: not model state */
    memcpy(w, stage >= 3 ? w0 + lo : w0, (stage >= 3 ? nl : np) * sizeof *w);
    memset(m, 0, nl * sizeof *m);
    memset(v, 0, nl * sizeof *v);

    for (int step = 0; step < j->steps; step++) {
        const float *x = j->x + ((size_t)step * j->batch + slo) * (size_t)j->s.d;
        const float *y = j->y + ((size_t)step * j->batch + slo) * (size_t)j->s.o;
        if (stage <= 1) {
            mlp_grad_sum(j->s, w, x, y, ns, g, scratch);
            coll_compute(c, fl, NULL);
            if (stage == 0) {
                coll_allreduce_ring(c, g, np);
                zero_adam_step(&j->adam, step + 1, w, g, j->batch, m, v, np);
            } else {
                coll_reduce_scatter_ring(c, g, np);
                zero_adam_step(&j->adam, step + 1, w + lo, g + lo, j->batch, m, v, nl);
                if (fault != ZERO_FAULT_SKIP_ALLGATHER) coll_allgather_ring(c, w, np);
            }
        } else if (stage == 2) {
            double t = 0;
            float *full = held(np, &t);                 /* transient: the whole gradient for the backward */
            r.transient = fmax(r.transient, t);
            mlp_grad_sum(j->s, w, x, y, ns, full, scratch);
            coll_compute(c, fl, NULL);
            coll_reduce_scatter_ring(c, full, np);
            memcpy(g, full + lo, nl * sizeof *g);
            pw_free(full);
            zero_adam_step(&j->adam, step + 1, w + lo, g, j->batch, m, v, nl);
            if (fault != ZERO_FAULT_SKIP_ALLGATHER) coll_allgather_ring(c, w, np);
        } else {
            double t = 0;
            float *wf = held(np, &t);                   /* transient: gathered weights for the forward */
            if (fault != ZERO_FAULT_SKIP_ALLGATHER) gather_weights(c, wf, w, lo, hi, np);
            else { memcpy(wf, w0, np * sizeof *wf); memcpy(wf + lo, w, nl * sizeof *wf); }
            (void)mlp_loss(j->s, wf, x, y, ns, scratch);
            coll_compute(c, fl / 3, "F");               /* forward: 2 of the 6 flops a parameter a sample */
            pw_free(wf);                                 /* freed after the forward, as FSDP frees a unit */
            t = 0;
            wf = held(np, &t);                           /* gathered again for the backward */
            float *full = held(np, &t);                  /* and the whole gradient beside it */
            r.transient = fmax(r.transient, t);
            if (fault != ZERO_FAULT_SKIP_ALLGATHER) gather_weights(c, wf, w, lo, hi, np);
            else { memcpy(wf, w0, np * sizeof *wf); memcpy(wf + lo, w, nl * sizeof *wf); }
            mlp_grad_sum(j->s, wf, x, y, ns, full, scratch);
            coll_compute(c, fl * 2 / 3, "B");
            coll_reduce_scatter_ring(c, full, np);
            memcpy(g, full + lo, nl * sizeof *g);
            pw_free(full);
            pw_free(wf);
            zero_adam_step(&j->adam, step + 1, w, g, j->batch, m, v, nl);
        }
    }
    r.sent = k.bytes;
    if (w_out) {
        if (stage >= 3) gather_weights(c, w_out, w, lo, hi, np);   /* after the count: to check, not to train */
        else memcpy(w_out, w, np * sizeof *w_out);
    }
    if (rep) *rep = r;
    pw_free(w);
    pw_free(g);
    pw_free(m);
    pw_free(v);
    pw_free(scratch);
}

void zero_one_device(const zero_job *j, float *w)
{
    size_t np = mlp_nparams(j->s);
    float *g = pw_alloc_floats(np), *m = pw_alloc_floats(np), *v = pw_alloc_floats(np);
    float *scratch = pw_alloc_floats((size_t)(j->s.k + j->s.o));
    memset(m, 0, np * sizeof *m);
    memset(v, 0, np * sizeof *v);
    for (int step = 0; step < j->steps; step++) {
        size_t base = (size_t)step * j->batch;
        mlp_grad_sum(j->s, w, j->x + base * (size_t)j->s.d, j->y + base * (size_t)j->s.o, j->batch, g, scratch);
        zero_adam_step(&j->adam, step + 1, w, g, j->batch, m, v, np);
    }
    pw_free(g);
    pw_free(m);
    pw_free(v);
    pw_free(scratch);
}
