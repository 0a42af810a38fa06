/* tests/test_zero.c: ZeRO's formulas and the sharded training step
 * (kernels/zero.h).
 *
 * Checks: the ZeRO paper's Figure 1 (7.5B parameters on 64 devices: 120,
 * 31.4, 16.6, 1.9 GB) from zero_model_states to 0.1 GB; the comm formula
 * at hand-worked points; two Adam steps against numbers worked by hand;
 * zero_replica at stages 0-3 on d = 1, 2, 3, 5 for two odd parameter
 * counts giving one device's weights (d = 1 bit for bit), every rank the
 * same bits, bytes summed over ranks equal to the formula exactly, the
 * memory each rank holds equal to its chunk's sizes; and a planted fault
 * (the all-gather skipped) that the same check must catch. */
#include "check.h"
#include "cluster.h"
#include "collectives.h"
#include "mlp.h"
#include "unit.h"
#include "util.h"
#include "zero.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_paper_figure1(void)
{
    const double paper[4] = { 120, 31.4, 16.6, 1.9 };
    for (int st = 0; st < 4; st++) {
        zero_memory m = zero_model_states(7.5e9, st, 64, 2, 2, 12);
        EXPECT(fabs(m.total / 1e9 - paper[st]) <= 0.05 + 1e-9, "stage %d: %.3f GB, the paper %.1f", st, m.total / 1e9, paper[st]);
        EXPECT(m.total == m.weights + m.grads + m.optimizer, "stage %d: total is the sum", st);
    }
    /* by hand: stage 1 = 15 + 15 + 90/64 = 31.40625 GB */
    EXPECT(fabs(zero_model_states(7.5e9, 1, 64, 2, 2, 12).total - 31.40625e9) < 1, "stage 1 exactly 31.40625 GB");
}

static void test_comm_formula(void)
{
    EXPECT(zero_comm_elems(1000, 0, 1) == 0, "one device sends nothing");
    EXPECT(zero_comm_elems(1000, 0, 4) == 1500, "DP on 4: 2 x 1000 x 3/4 = 1500, got %g", zero_comm_elems(1000, 0, 4));
    EXPECT(zero_comm_elems(1000, 2, 4) == 1500, "ZeRO-2 on 4: 1500");
    EXPECT(zero_comm_elems(1000, 3, 4) == 2250, "ZeRO-3 on 4: 3 x 1000 x 3/4 = 2250, got %g", zero_comm_elems(1000, 3, 4));
    EXPECT(fabs(zero_comm_elems(7, 3, 3) - 14) < 1e-12, "ZeRO-3, 7 elements on 3: 14");
}

/* Worked by hand, lr 0.1, b1 0.9, b2 0.999: gradient 0.5 twice: m = 0.05,
 * v = 2.5e-4, corrected 0.5 and 0.25, step 0.1 x 0.5 / 0.5 = 0.1: w 1 -> 0.9;
 * then m = 0.095, v = 4.9975e-4, corrected 0.5 and 0.25 again: 0.8.
 * Gradient sum -4 over a batch of 2 (mean -2): w 1 -> 1.1. */
static void test_adam_by_hand(void)
{
    zero_adam a = zero_adam_defaults(0.1f);
    float w[2] = { 1, 1 }, g[2] = { 0.5f, -4 }, m[2] = { 0, 0 }, v[2] = { 0, 0 };
    zero_adam_step(&a, 1, w, g, 1, m, v, 1);
    EXPECT(fabsf(w[0] - 0.9f) < 1e-6f, "step 1: w = 0.9, got %.9g", w[0]);
    EXPECT(fabsf(m[0] - 0.05f) < 1e-7f && fabsf(v[0] - 2.5e-4f) < 1e-8f, "m 0.05, v 2.5e-4: %g %g", m[0], v[0]);
    zero_adam_step(&a, 2, w, g, 1, m, v, 1);
    EXPECT(fabsf(w[0] - 0.8f) < 1e-6f, "step 2: w = 0.8, got %.9g", w[0]);
    float w2 = 1, m2 = 0, v2 = 0;
    zero_adam_step(&a, 1, &w2, g + 1, 2, &m2, &v2, 1);
    EXPECT(fabsf(w2 - 1.1f) < 1e-6f, "mean gradient -2: w = 1.1, got %.9g", w2);
}

typedef struct {
    const zero_job *job;
    int stage, fault;
    const float *w0;
    float **w;
    zero_rank_report *rep;
} arg_t;

static void rank_fn(pw_rank *r, void *p)
{
    arg_t *a = p;
    pw_comm c = coll_comm_cluster(r);
    zero_replica(&c, a->job, a->stage, a->w0, a->w[c.rank], &a->rep[c.rank], a->fault);
}

/* Train at stage on d ranks; 0 if the weights pass the check against w_ref. */
static int run(const zero_job *job, int stage, int d, int fault, const float *w0, const float *w_ref, double *diff)
{
    size_t np = mlp_nparams(job->s);
    float **w = calloc((size_t)d, sizeof *w);
    zero_rank_report *rep = calloc((size_t)d, sizeof *rep);
    for (int r = 0; r < d; r++) w[r] = pw_alloc_floats(np);
    arg_t a = { job, stage, fault, w0, w, rep };
    pw_cluster_config cfg = pw_cluster_defaults(d);
    pw_cluster *c = pw_cluster_create(&cfg);
    int rc = pw_cluster_run(c, rank_fn, &a);
    EXPECT(rc == 0, "stage %d d %d: cluster run %d", stage, d, rc);
    pw_cluster_destroy(c);
    *diff = 0;
    for (size_t i = 0; i < np; i++) *diff = fmax(*diff, fabs((double)w[0][i] - w_ref[i]));
    /* zero.c's tolerance, explained there: lr x steps x 1e-2 */
    int bad = 0;
    for (size_t i = 0; i < np; i++) if (!pw_close(w[0][i], w_ref[i], job->adam.lr * job->steps * 1e-2, 0)) bad = 1;
    if (!fault) {
        double sent = 0;
        for (int r = 0; r < d; r++) {
            EXPECT(memcmp(w[r], w[0], np * sizeof(float)) == 0, "stage %d d %d: rank %d's bits equal rank 0's", stage, d, r);
            sent += rep[r].sent;
            size_t nl = rep[r].hi - rep[r].lo;
            size_t own = stage ? nl : np;
            EXPECT(rep[r].optimizer == 8.0 * own, "stage %d d %d rank %d: Adam state 8 B x %zu", stage, d, r, own);
            EXPECT(rep[r].grads == 4.0 * (stage >= 2 ? nl : np), "stage %d d %d rank %d: gradients", stage, d, r);
            EXPECT(rep[r].weights == 4.0 * (stage >= 3 ? nl : np), "stage %d d %d rank %d: weights", stage, d, r);
        }
        /* summed over ranks the ring sends exactly (d-1) x np per pass */
        double want = (stage == 3 ? 3.0 : 2.0) * (double)np * (d - 1) * 4 * job->steps;
        EXPECT(sent == want, "stage %d d %d: %.0f bytes sent in all, formula %.0f", stage, d, sent, want);
        EXPECT(fabs(sent / d / job->steps - zero_comm_elems((double)np, stage, d) * 4) < 1e-9 * (want + 1),
               "stage %d d %d: per device per step = zero_comm_elems x 4", stage, d);
    }
    for (int r = 0; r < d; r++) pw_free(w[r]);
    free(w);
    free(rep);
    return bad;
}

static void train_shape(mlp_shape s)
{
    size_t np = mlp_nparams(s), batch = 37, steps = 5;
    EXPECT(np % 2 == 1, "odd parameter count: %zu", np);
    float *x = pw_alloc_floats(batch * steps * (size_t)s.d), *y = pw_alloc_floats(batch * steps * (size_t)s.o);
    mlp_make_data(s, batch * steps, 11, x, y);
    float *w0 = pw_alloc_floats(np), *ref = pw_alloc_floats(np);
    mlp_init(s, w0, 3);
    memcpy(ref, w0, np * sizeof(float));
    zero_job job = { s, x, y, batch, (int)steps, zero_adam_defaults(1e-3f) };
    zero_one_device(&job, ref);
    const int ds[] = { 1, 2, 3, 5 };
    for (int st = 0; st < 4; st++)
        for (int i = 0; i < 4; i++) {
            double diff;
            EXPECT(run(&job, st, ds[i], 0, w0, ref, &diff) == 0, "stage %d d %d: weights off by %g", st, ds[i], diff);
            if (ds[i] == 1) EXPECT(diff == 0, "stage %d on one device: bit for bit, off by %g", st, diff);
        }
    /* the planted fault: without the all-gather, other ranks' chunks stay stale */
    for (int st = 1; st < 4; st++) {
        double diff;
        EXPECT(run(&job, st, 3, ZERO_FAULT_SKIP_ALLGATHER, w0, ref, &diff) != 0,
               "stage %d with the all-gather skipped must fail the check (off by %g)", st, diff);
    }
    pw_free(x); pw_free(y); pw_free(w0); pw_free(ref);
}

static void test_train_odd_small(void) { train_shape((mlp_shape){ 6, 9, 3 }); }     /* 93 parameters */
static void test_train_odd_chapter(void) { train_shape((mlp_shape){ 16, 63, 4 }); } /* 1327 */

int main(void)
{
    RUN(test_paper_figure1);
    RUN(test_comm_formula);
    RUN(test_adam_by_hand);
    RUN(test_train_odd_small);
    RUN(test_train_odd_chapter);
    return UNIT_RESULT();
}
