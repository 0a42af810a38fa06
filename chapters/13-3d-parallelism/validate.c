/* chapters/13-3d-parallelism/validate.c: the planner's step-time formula
 * against the composed DP x TP x PP code run on the virtual cluster with
 * real data. Validated, not believed.
 *
 *   ./build/ch13/validate                 12 configurations up to 64 ranks
 *   ./build/ch13/validate --tiny          the 8-rank ones
 *
 * For each d x t x p (both schedules, GPipe and 1F1B, and both mappings):
 *   1. kernels/parallel3d.c's p3_rank runs a stack of residual MLP blocks
 *      (width h = 16, inner f = 64, 2 layers a stage, b = 3 samples a
 *      micro-batch, m = 4 micro-batches a replica) on d t p ranks: TP groups,
 *      pipeline neighbours and DP groups made by coll_comm_split, each stage
 *      Megatron-split t ways, the orders of chapter 12, the gradients
 *      all-reduced over d at the end. Gradients and loss are checked against
 *      the unsplit model on all d m b samples (p3_reference), within the
 *      tolerance of summation order.
 *   2. The run's modelled step (pw_cluster_time) is compared with
 *      p3_time_model, the planner's formula, fed the same work and links.
 *      The formula leaves out how the pipeline's sends really interleave
 *      with compute: it is GPipe's timeline (all forwards, then all
 *      backwards, one message at a time on each hop), so GPipe's runs must
 *      match it to rounding (1e-9) wherever no pipeline message can reach
 *      a stage early (p3_gpipe_queue_bound returns 0: t = 1, m = 1, or
 *      the first and last hops as slow as any). Where a stage is fed
 *      faster than it sends (2x2x4 tensor-first: hops NVLink, network,
 *      NVLink), an early activation or gradient can hold a TP all-reduce
 *      message on the rank's incoming link; from m = 6 on it does, and the
 *      run must then lie between the formula and the formula plus that
 *      bound, (m - 1) x the incoming hop's cost per late stage and
 *      direction. 1F1B's steady state sends an activation
 *      forward and a gradient back at the same time (links are full
 *      duplex), hiding part of the pipeline's messages, while its
 *      interleaved TP all-reduces sometimes wait for a neighbour: its gap
 *      is reported (up to 5.9% at m = 4, growing with m: 13.6% at m = 32),
 *      and checked only when --tolerance X is given (a larger error then
 *      exits 1).
 * The devices are slowed to 0.001 TFLOP/s (--device-tflops) so that this
 * small model keeps the balance of a real step: a layer's compute (12 us)
 * of the order of its TP all-reduce (a few us), not 1000x less.
 *
 * --fault no-tp-backward (the backward pass's TP all-reduce left out) or
 * no-dp (the gradients never all-reduced over the replicas) breaks the
 * composed code on purpose: the check must catch it and exit 1.
 *
 * CSV: quantity rows per configuration ("run_s", "model_s", "error", and
 * for GPipe "queue_bound_s", 0 where the formula must be exact),
 * param "dxtxp/schedule/order"; and one step's trace for the Gantt chart
 * (2 x 2 x 2, 1F1B, tensor-first): event rows, variant F, B, send, recv,
 * threads = rank, param "2x2x2"; metadata ranks and step_s.
 */
#include "check.h"
#include "cluster.h"
#include "options.h"
#include "parallel3d.h"
#include "results.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define H 16
#define F 64
#define B 3

typedef struct { int d, t, p; } shape3;

static void rank_main(pw_rank *r, void *arg)
{
    pw_comm world = coll_comm_cluster(r);
    p3_rank(&world, arg);
}

/* One composed run; returns 0, or 1 with why. */
static int fault = P3_FAULT_NONE;

static int run_one(const p3_config *cf, bool gpipe, int layers, const pw_cluster_flags *lf, double *run_s, double *model_s,
                   double *bound_s, int *late, pw_csv *gantt, char *why, size_t len)
{
    int R = cf->d * cf->t * cf->p;
    size_t count = (size_t)cf->d * (size_t)cf->m * B, nw = p3_nweights(layers, H, F);
    float *w = pw_alloc_floats(nw), *x = pw_alloc_floats(count * H), *y = pw_alloc_floats(count * H);
    float *grad = pw_alloc_floats(nw), *ref = pw_alloc_floats(nw);
    double *loss = calloc((size_t)cf->d, sizeof *loss);
    /* weights +-1/sqrt(fan-in) keep the 2p-layer residual stack from blowing up */
    pw_fill_random(w, nw, 13, -0.25f, 0.25f);
    pw_fill_random(x, count * H, 14, -1, 1);
    pw_fill_random(y, count * H, 15, -1, 1);
    memset(grad, 0, nw * sizeof *grad);
    p3_job job = { layers, H, F, B, *cf, gpipe, w, x, y, grad, loss, fault };
    pw_cluster_config cc = pw_cluster_config_for(R, lf);
    cc.trace = gantt != NULL;   /* NULL when no CSV was asked for: no trace needed */
    pw_cluster_check_or_exit("validate", &cc);
    pw_cluster *c = pw_cluster_create(&cc);
    pw_cluster_name_tag(c, 1, "activations");
    pw_cluster_name_tag(c, 2, "gradients");
    int rc = 0;
    if (pw_cluster_run(c, rank_main, &job) != PW_CLUSTER_OK) {
        snprintf(why, len, "the run failed: %s", pw_cluster_report(c));
        rc = 1;
    }
    double want = rc ? 0 : p3_reference(layers, H, F, w, x, y, count, ref), got = 0;
    for (int i = 0; i < cf->d; i++) got += loss[i];
    /* Sums of a few hundred terms of size ~1 in another order (TP's ring
     * adds the t partial products chunk by chunk, DP's the d replicas):
     * float rounding, ~1e-6 relative; 1e-4 leaves room, a wrong slice or a
     * missed all-reduce is off by O(1). */
    float scale = 0;
    for (size_t i = 0; !rc && i < nw; i++) scale = fabsf(ref[i]) > scale ? fabsf(ref[i]) : scale;
    if (!rc && (pw_check_floats("composed gradients", grad, ref, nw, 1e-5 * scale, 1e-4)
                || pw_check_scalar("composed loss", got, want, 0, 1e-5))) {
        snprintf(why, len, "gradients or loss differ from the unsplit model (above)");
        rc = 1;
    }
    if (!rc) {
        *run_s = pw_cluster_time(c);
        p3_cluster cl = { R / cc.ranks_per_node, cc.ranks_per_node, cc.intra_alpha, cc.intra_gbs, cc.inter_alpha,
                          cc.inter_gbs, 1, 1, 1, 0, 0 };
        p3_work wk;
        p3_mlp_work(&job, &wk);
        p3_time tm;
        p3_time_model(&wk, &cl, cf, cc.device_gflops * 1e9, &tm);
        *model_s = tm.total;
        *bound_s = p3_gpipe_queue_bound(&wk, &cl, cf, late);
        if (gantt) {
            size_t n;
            const pw_trace_event *ev = pw_cluster_trace(c, &n);
            for (size_t i = 0; i < n; i++)
                pw_csv_event(gantt, ev[i].kind, 0, ev[i].rank, "2x2x2", ev[i].start, ev[i].end, ev[i].bytes);
            pw_csv_meta(gantt, "ranks", "%d", R);
            pw_csv_meta(gantt, "step_s", "%.9g", *run_s);
        }
    }
    pw_cluster_destroy(c);
    pw_free(w); pw_free(x); pw_free(y); pw_free(grad); pw_free(ref);
    free(loss);
    return rc;
}

/* Whether --tolerance was on the command line (its value may be 0 or
 * negative, which is bad input only when given). */
static bool tol_given(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--tolerance", 11)) return true;
    return false;
}

int main(int argc, char **argv)
{
    double tol = 0;   /* 0: 1F1B's gap is reported, not checked (it grows with m) */
    long long m = 4;
    pw_cluster_flags lf = pw_cluster_flag_defaults();
    lf.device_tflops = 0.001;
    const char *fault_name = NULL;
    pw_opt opts[4 + PW_CLUSTER_NFLAGS] = {
        { NULL, "--tolerance", PW_OPT_DOUBLE, &tol, "X", "check 1F1B too: largest relative error allowed, formula against run (default: reported only)", 0, 1 },
        { "-m", "--micro", PW_OPT_INT, &m, "M", "micro-batches per replica (default 4)", 1, 64 },
        { NULL, "--fault", PW_OPT_STRING, &fault_name, "WHAT", "leave out a step to see the check catch it: no-tp-backward, no-dp", 0, 0 },
    };
    int nopts = 3 + pw_cluster_flag_opts(&lf, opts + 3, true);
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "the planner's step-time formula against the composed DP x TP x PP run (real data)",
                     opts, nopts, &common);
    if (fault_name && !strcmp(fault_name, "no-tp-backward")) fault = P3_FAULT_NO_TP_BACKWARD;
    else if (fault_name && !strcmp(fault_name, "no-dp")) fault = P3_FAULT_NO_DP;
    else if (fault_name) {
        fprintf(stderr, "%s: --fault: unknown fault '%s' (no-tp-backward or no-dp)\n", common.prog, fault_name);
        return PW_EXIT_USAGE;
    }
    if (tol_given(argc, argv) && !(tol > 0)) {
        fprintf(stderr, "%s: --tolerance must be positive\n", common.prog);
        return PW_EXIT_USAGE;
    }
    static const shape3 all[] = { { 1, 1, 1 }, { 2, 1, 1 }, { 1, 2, 1 }, { 1, 1, 2 }, { 2, 2, 2 }, { 1, 4, 2 },
                                  { 4, 2, 1 }, { 2, 2, 4 }, { 4, 2, 2 }, { 2, 4, 4 }, { 4, 4, 4 }, { 1, 8, 8 } };
    int nshapes = common.tiny ? 6 : (int)(sizeof all / sizeof all[0]);
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    {   /* the Gantt chart's step, checked like the others; its events go to the CSV, which
         * is only renamed into place if every check below passes */
        p3_config cf = { 2, 2, 2, B, m, false, false, P3_ORDER_TDP };
        double a, b, q;
        int late;
        char why[8192];
        if (run_one(&cf, false, 4, &lf, &a, &b, &q, &late, csv, why, sizeof why)) {
            fprintf(stderr, "%s: 2x2x2 1f1b: %s\n", common.prog, why);
            return PW_EXIT_WRONG;
        }
    }

    struct row { char name[48]; double run, model, err, bound; } rows[4 * 16];
    int nrows = 0, n_exact = 0, n_late = 0, late_stages = 0;
    double worst = 0, worst_gpipe = 0, worst_late = -INFINITY, late_bound = 0;    /* worst_late: run - formula, s */
    const char *worst_name = "", *worst_gpipe_name = "", *worst_late_name = "", *bad_late = NULL;
    for (int k = 0; k < nshapes; k++)
        for (int o = 0; o < 2; o++)
            for (int g = 0; g < 2; g++) {
                p3_config cf = { all[k].d, all[k].t, all[k].p, B, m, false, false, (p3_order)o };
                double run_s = 0, model_s = 0, bound_s = 0;
                int late = 0;
                char why[8192];
                if (run_one(&cf, g == 0, 2 * all[k].p, &lf, &run_s, &model_s, &bound_s, &late, NULL, why, sizeof why)) {
                    fprintf(stderr, "%s: %dx%dx%d %s %s: %s\n", common.prog, cf.d, cf.t, cf.p, g ? "1f1b" : "gpipe",
                            p3_order_name(cf.order), why);
                    return PW_EXIT_WRONG;
                }
                struct row *rw = &rows[nrows++];
                snprintf(rw->name, sizeof rw->name, "%dx%dx%d/%s/%s", cf.d, cf.t, cf.p, g ? "1f1b" : "gpipe", p3_order_name(cf.order));
                rw->run = run_s;
                rw->model = model_s;
                rw->err = (model_s - run_s) / run_s;
                rw->bound = g == 0 ? bound_s : 0;
                if (g == 0 && bound_s == 0) {    /* no message can reach a stage early: exact */
                    n_exact++;
                    if (fabs(rw->err) > worst_gpipe) { worst_gpipe = fabs(rw->err); worst_gpipe_name = rw->name; }
                } else if (g == 0) {             /* a late stage: formula <= run <= formula + bound */
                    n_late++;
                    double excess = run_s - model_s;
                    if (excess < -1e-9 * run_s || excess > bound_s * (1 + 1e-9)) bad_late = rw->name;
                    if (excess > worst_late) { worst_late = excess; worst_late_name = rw->name; late_bound = bound_s; late_stages = late; }
                }
                if (g == 1 && fabs(rw->err) > worst) { worst = fabs(rw->err); worst_name = rw->name; }
            }
    printf("all variants match: %d composed runs (d x t x p up to %d ranks, GPipe and 1F1B, both mappings):\n"
           "gradients and loss equal the unsplit model's within summation-order rounding\n\n", nrows,
           all[nshapes - 1].d * all[nshapes - 1].t * all[nshapes - 1].p);
    printf("h = %d, f = %d, 2 layers a stage, b = %d, m = %lld, devices at %g TFLOP/s, %lld a node\n\n", H, F, B, m,
           lf.device_tflops, lf.per_node);
    printf("%-26s %12s %12s %9s\n", "d x t x p / schedule / map", "run (us)", "formula (us)", "error");
    for (int i = 0; i < nrows; i++)
        printf("%-26s %12.2f %12.2f %+8.2f%%\n", rows[i].name, rows[i].run * 1e6, rows[i].model * 1e6, 100 * rows[i].err);
    printf("\nvalidation error, |formula - run| / run:\n"
           "  GPipe: exact in all %d runs where no message can reach a stage early: worst %.2g%%%s%s%s, "
           "tolerance 1e-7%%\n", n_exact, 100 * worst_gpipe, n_exact ? " (" : "", n_exact ? worst_gpipe_name : "",
           n_exact ? ")" : "");
    if (n_late)
        printf("  GPipe: %d run%s where a stage is fed faster than it sends: the run longer by up to %.2f us (%s), "
               "bound %.2f us ((m - 1) early messages x their hop's cost, at %d stage%s)%s\n", n_late,
               n_late == 1 ? "" : "s", 1e6 * fmax(worst_late, 0), worst_late_name, 1e6 * late_bound, late_stages,
               late_stages == 1 ? "" : "s",
               worst_late <= 1e-9 * late_bound + 1e-15 ? "\n         (at this m no message came early: exact too)" : "");
    if (tol > 0) printf("  1F1B:  worst %.2f%% (%s), tolerance %.1f%%\n", 100 * worst, worst_name, 100 * tol);
    else printf("  1F1B:  worst %.2f%% (%s), reported, not checked: the formula is GPipe's timeline, and 1F1B's\n"
                "         gap grows with m (--tolerance X checks it)\n", 100 * worst, worst_name);
    if (worst_gpipe > 1e-9) {
        fprintf(stderr, "%s: the formula misses the GPipe run by %.3g%% (%s): it should be exact\n", common.prog,
                100 * worst_gpipe, worst_gpipe_name);
        return PW_EXIT_WRONG;
    }
    if (bad_late) {
        fprintf(stderr, "%s: the GPipe run %s is outside [formula, formula + queueing bound]\n", common.prog, bad_late);
        return PW_EXIT_WRONG;
    }
    if (tol > 0 && worst > tol) {
        fprintf(stderr, "%s: the planner's formula misses the composed run by %.2f%% (%s), more than %.1f%%\n",
                common.prog, 100 * worst, worst_name, 100 * tol);
        return PW_EXIT_WRONG;   /* the CSV stays unwritten (its temporary is left behind) */
    }
    /* The answer to the question asked before the run: for each schedule,
     * how often the formula's step came out longer than the run's
     * (pessimistic), shorter (optimistic) or equal (within 1e-9, GPipe's
     * check), and by how much at most. */
    printf("\nanswer:");
    for (int g = 0; g < 2; g++) {
        int n = 0, above = 0, below = 0;
        double most_above = 0, most_below = 0;
        for (int i = 0; i < nrows; i++) {
            if ((strstr(rows[i].name, "/1f1b/") != NULL) != (g == 1)) continue;
            n++;
            if (rows[i].err > 1e-9) { above++; if (rows[i].err > most_above) most_above = rows[i].err; }
            if (rows[i].err < -1e-9) { below++; if (-rows[i].err > most_below) most_below = -rows[i].err; }
        }
        printf("%s %s: ", g ? ";\n ": "", g ? "1F1B" : "GPipe");
        printf("the formula is exact in %d of %d runs", n - above - below, n);
        if (above) printf(", above the run in %d (by up to %.2f%%)", above, 100 * most_above);
        if (below) printf(", below it in %d (by up to %.2f%%)", below, 100 * most_below);
    }
    printf("\n");
    for (int i = 0; i < nrows; i++) {
        pw_csv_quantity(csv, "run_s", m, 0, rows[i].name, rows[i].run);
        pw_csv_quantity(csv, "model_s", m, 0, rows[i].name, rows[i].model);
        pw_csv_quantity(csv, "error", m, 0, rows[i].name, rows[i].err);
        if (strstr(rows[i].name, "/gpipe/")) pw_csv_quantity(csv, "queue_bound_s", m, 0, rows[i].name, rows[i].bound);
    }
    pw_csv_meta(csv, "worst_error_gpipe", "%.3g", worst_gpipe);
    pw_csv_meta(csv, "worst_error_1f1b", "%.6f", worst);
    return pw_csv_close(csv);
}
