/* chapters/10-data-parallel/dataparallel.c: train a small MLP on one device,
 * then on R data-parallel replicas of the virtual cluster, and show that they
 * learn the same weights.
 *
 *   ./build/ch10/dataparallel                    R = 1, 2, 3, 4, 8, 16; 40 steps
 *   ./build/ch10/dataparallel -R 5,64 -s 100 -b 1000
 *
 * The replica's loop is kernels/dp_train.c (dp_replica, on a pw_comm), which
 * mpi_train.c runs across Open MPI processes unchanged.
 * Each step: the global batch of b samples is split R ways (shards differ by
 * at most one sample when R does not divide b); every replica sums the
 * gradients of its shard (kernels/mlp.h), the sums are all-reduced (ring or
 * tree, kernels/collectives.h), and every replica applies the same SGD update
 * to its own copy of the weights. Gradient accumulation: each replica sums
 * k micro-batches of its shard before the one all-reduce.
 *
 * What to expect: R = 1 gives bitwise the one-device weights (same additions
 * in the same order). R > 1 adds the same numbers in another order, so the
 * weights differ in the last bits: about 1e-7 relative after 40 steps, far
 * inside the tolerance. The replicas agree with each other bitwise, always.
 * The loss curves lie on top of each other.
 *
 * CSV: kind=quantity rows, variant "one_device", "ring", "tree" or
 * "ring_accumulate"; n = the step, threads = replicas, param "loss", value =
 * the mean loss over that step's batch (before the update). Plus, per
 * replica count, param "max_weight_diff": the largest |w - w_one_device|.
 */
#include "check.h"
#include "cluster.h"
#include "collectives.h"
#include "dp_train.h"
#include "mlp.h"
#include "options.h"
#include "results.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    dp_job dp;
    float **w;              /* per replica: its weights (in and out) */
    double *loss;           /* per step: mean loss, written by rank 0 */
} train_job;

/* One replica: the training loop of kernels/dp_train.c on the cluster. */
static void replica(pw_rank *r, void *arg)
{
    train_job *j = arg;
    pw_comm comm = coll_comm_cluster(r);
    dp_replica(&comm, &j->dp, j->w[comm.rank], comm.rank == 0 ? j->loss : NULL, NULL);
}

typedef struct { double max_diff; double modelled_s; int bad; } dp_result;

/* Train on R replicas; check every replica against replica 0 (bitwise) and
 * replica 0 against the one-device weights (tolerance below). */
static dp_result train_replicas(train_job *j, int R, const float *w0, const float *w_ref, const char *name,
                                const pw_cluster_flags *links)
{
    size_t np = mlp_nparams(j->dp.s);
    dp_result res = { 0, 0, 0 };
    j->w = calloc((size_t)R, sizeof *j->w);
    for (int r = 0; r < R; r++) {
        j->w[r] = pw_alloc_floats(np);
        memcpy(j->w[r], w0, np * sizeof(float));
    }
    pw_cluster_config cfg = pw_cluster_config_for(R, links);
    pw_cluster *c = pw_cluster_create(&cfg);
    if (pw_cluster_run(c, replica, j) != 0) {
        fprintf(stderr, "%s", pw_cluster_report(c));
        res.bad = 1;
    }
    res.modelled_s = pw_cluster_time(c);
    pw_cluster_destroy(c);
    for (int r = 1; r < R && !res.bad; r++)
        if (memcmp(j->w[r], j->w[0], np * sizeof(float)) != 0) {
            fprintf(stderr, "%s R=%d: replica %d's weights differ from replica 0's: the replicas drifted\n", name, R, r);
            res.bad = 1;
        }
    for (size_t i = 0; i < np; i++) res.max_diff = fmax(res.max_diff, fabs((double)j->w[0][i] - w_ref[i]));
    /* Why this tolerance: each gradient element is a sum of `batch` float
     * terms; another order changes it by at most batch * 2^-24 of the sum of
     * the terms' magnitudes, a relative 1.5e-5 for 250 samples, and typically
     * sqrt(batch) * 2^-24 = 1e-6. The update scales that by the learning rate,
     * and 40 steps add up to 40 such changes. 1e-4 relative (plus 1e-6 for
     * weights near zero) leaves room for the worst case and still catches a
     * wrong shard or a mean taken twice, which are off by whole percents. */
    char what[64];
    snprintf(what, sizeof what, "%s R=%d weights vs one device", name, R);
    res.bad |= pw_check_floats(what, j->w[0], w_ref, np, 1e-6, 1e-4);
    for (int r = 0; r < R; r++) pw_free(j->w[r]);
    free(j->w);
    return res;
}

int main(int argc, char **argv)
{
    pw_list reps = { .n = 0 };           /* not given: the defaults below (smaller under --tiny) */
    long long batch = 250, steps = -1, accum = 4;
    double lr = 0.05;
    pw_cluster_flags links = pw_cluster_flag_defaults();
    pw_opt opts[5 + PW_CLUSTER_NFLAGS] = {
        { "-R", "--replicas", PW_OPT_SIZES, &reps, "R[,R...]", "replica counts (up to one node, then whole nodes)", 1, 1024 },
        { "-b", "--batch", PW_OPT_INT, &batch, "B", "global batch in samples (default 250)", 1, 1 << 20 },
        { "-s", "--steps", PW_OPT_INT, &steps, "S", "SGD steps (default 40)", 1, 100000 },
        { "-k", "--accumulate", PW_OPT_INT, &accum, "K", "micro-batches per all-reduce in the accumulation run (default 4)", 1, 1024 },
        { NULL, "--lr", PW_OPT_DOUBLE, &lr, "LR", "learning rate (default 0.05)", 0, 10 },
    };
    pw_common_opts common;
    int nopts = 5 + pw_cluster_flag_opts(&links, opts + 5, true);
    pw_parse_or_exit(argc, argv, "data-parallel SGD on the virtual cluster equals one-device SGD", opts, nopts, &common);
    if (!reps.n) reps = common.tiny ? (pw_list)PW_LIST(1, 3, 8) : (pw_list)PW_LIST(1, 2, 3, 4, 8, 16);
    if (steps < 0) steps = common.tiny ? 8 : 40;
    for (int i = 0; i < reps.n; i++) {
        pw_cluster_config cfg = pw_cluster_config_for((int)reps.v[i], &links);
        pw_cluster_check_or_exit(common.prog, &cfg);
    }
    mlp_shape s = { 16, 64, 4 };
    size_t np = mlp_nparams(s), total = (size_t)batch * (size_t)steps;
    pw_require_memory(common.prog, "-b", (long long)total, (size_t)(s.d + s.o) * sizeof(float), 1);
    pw_require_memory(common.prog, "-R", pw_list_max(&reps), np * sizeof(float), 3);

    /* Opened before any rank runs: an unwritable path is refused (exit 2)
     * before the fibers start, as on every other bad input. */
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    float *x = pw_alloc_floats(total * (size_t)s.d), *y = pw_alloc_floats(total * (size_t)s.o);
    mlp_make_data(s, total, 2024, x, y);
    float *w0 = pw_alloc_floats(np), *w_ref = pw_alloc_floats(np);
    mlp_init(s, w0, 7);
    memcpy(w_ref, w0, np * sizeof(float));
    double *loss_ref = calloc((size_t)steps, sizeof(double)), *loss = calloc((size_t)steps, sizeof(double));
    train_job j = { { s, x, y, (size_t)batch, (int)steps, (float)lr, 1, coll_allreduce_ring }, NULL, loss };
    dp_one_device(&j.dp, w_ref, loss_ref);

    /* Train every configuration first; print and write only if all pass. */
    const char *algos[] = { "ring", "tree", "ring_accumulate" };
    int nr = reps.n, bad = 0;
    dp_result *res = calloc((size_t)(3 * nr), sizeof *res);
    double *curves = calloc((size_t)(3 * nr) * (size_t)steps, sizeof *curves);
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < nr; i++) {
            j.dp.allreduce = a == 1 ? coll_allreduce_tree : coll_allreduce_ring;
            j.dp.micro = a == 2 ? (int)accum : 1;
            j.loss = curves + (size_t)(a * nr + i) * (size_t)steps;
            res[a * nr + i] = train_replicas(&j, (int)reps.v[i], w0, w_ref, algos[a], &links);
            bad |= res[a * nr + i].bad;
        }
    /* R = 1 without accumulation adds exactly what one device adds, in the same order */
    for (int i = 0; i < nr; i++)
        if (reps.v[i] == 1 && (res[i].max_diff != 0 || res[nr + i].max_diff != 0)) {
            fprintf(stderr, "R=1 should give the one-device weights bit for bit, differs by %g\n", res[i].max_diff);
            bad = 1;
        }
    if (bad) {
        fprintf(stderr, "%s: data-parallel training did not match one-device training; nothing written\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match: after %lld steps on a batch of %lld, every replica holds bitwise the same weights,\n"
           "  within 1e-4 relative of one-device training (R = 1: bit for bit)\n\n", steps, batch);

    printf("MLP %d-%d-%d (%zu parameters), %lld SGD steps, lr %g, accumulation k = %lld\n", s.d, s.k, s.o, np, steps, lr, accum);
    printf("%8s %22s %22s %22s\n", "replicas", "ring: max |w - w1|", "tree: max |w - w1|", "ring+accum: max |dw|");
    for (int i = 0; i < nr; i++)
        printf("%8lld %22.3g %22.3g %22.3g\n", reps.v[i], res[i].max_diff, res[nr + i].max_diff, res[2 * nr + i].max_diff);
    /* The answer from the table: R = 1 against the largest gap of any R > 1 (ring and tree). */
    int have1 = 0, many = 0;
    double gap1 = 0, gap_many = 0;
    for (int i = 0; i < nr; i++) {
        double g = fmax(res[i].max_diff, res[nr + i].max_diff);
        if (reps.v[i] == 1) { have1 = 1; gap1 = g; }
        else { many++; gap_many = fmax(gap_many, g); }
    }
    if (have1 && many)
        printf("answer: R = 1 %s one device's weights bit for bit (max |w - w1| = %.3g); R > 1 differ by at most %.3g:\n"
               "  the same sums added in another order. Every replica held the same bits as the others (checked above).\n",
               gap1 == 0 ? "matched" : "did NOT match", gap1, gap_many);
    else
        printf("answer: not shown on this run: -R needs 1 and a count above 1 to compare (max |w - w1| %.3g)\n",
               have1 ? gap1 : gap_many);

    pw_csv_meta(csv, "mlp", "%d-%d-%d", s.d, s.k, s.o);
    pw_csv_meta(csv, "batch", "%lld", batch);
    int show = nr - 1;     /* the loss table shows the largest R */
    printf("\nloss (mean over the batch, before each update): one device against %lld replicas\n", reps.v[show]);
    printf("%6s %14s %14s %14s %14s\n", "step", "one device", "ring", "tree", "ring+accum");
    for (int st = 0; st < steps; st++) {
        if (st < 3 || st == steps - 1 || st % 10 == 9)
            printf("%6d %14.6f %14.6f %14.6f %14.6f\n", st + 1, loss_ref[st], curves[(size_t)show * steps + st],
                   curves[(size_t)(nr + show) * steps + st], curves[(size_t)(2 * nr + show) * steps + st]);
        pw_csv_quantity(csv, "one_device", st + 1, 1, "loss", loss_ref[st]);
        for (int a = 0; a < 3; a++)
            for (int i = 0; i < nr; i++)
                pw_csv_quantity(csv, algos[a], st + 1, (int)reps.v[i], "loss", curves[(size_t)(a * nr + i) * steps + st]);
    }
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < nr; i++)
            pw_csv_quantity(csv, algos[a], steps, (int)reps.v[i], "max_weight_diff", res[a * nr + i].max_diff);

    free(res);
    free(curves);
    free(loss_ref);
    free(loss);
    pw_free(x);
    pw_free(y);
    pw_free(w0);
    pw_free(w_ref);
    return pw_csv_close(csv);
}
