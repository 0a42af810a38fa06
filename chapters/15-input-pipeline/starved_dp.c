/* chapters/15-input-pipeline/starved_dp.c: more devices do not feed a
 * starved loader. Data parallelism on the virtual cluster (chapter 10),
 * with each step's loading modelled from this machine's measured costs.
 *
 *   ./build/ch15/starved_dp                     R = 1, 2, 4, 8 replicas on one node
 *   ./build/ch15/starved_dp -R 1,8 --node-loaders 1,8 --load-us 20 --compute-us 2
 *
 * First it measures, on this machine, what one sample costs to load (decode
 * + augment, kernels/loader.c) and to compute (gradient + update of the MLP,
 * kernels/mlp.c): t_load and t_compute per sample, medians of several batches
 * (or the values given by --load-us and --compute-us, for a test to assert).
 * Then every replica of a global batch of B samples, each step:
 *   load      its share of the node's loading: the node's loaders make B
 *             samples a step whatever R is (they share the node's cores), so
 *             each replica waits B t_load / L for its shard, L = loader threads
 *   compute   its shard, (B / R) t_compute (the modelled device is this core)
 *   all-reduce of the gradients (ring, chapter 10), modelled by the cluster.
 * Without prefetch a step is load + compute + all-reduce; with prefetch the
 * loaders work during the compute: max(load, compute) + all-reduce.
 * The program checks every modelled step against those closed forms (the
 * ring: 2(R-1) (alpha + ceil(n/R) beta), i.e. 2(R-1)/R n beta when R divides
 * n: Patarasuk and Yuan 2009) before it
 * prints anything.
 *
 * CSV: quantity rows, variant "no_prefetch" or "prefetch", threads = R,
 * param "load", "compute", "allreduce" or "step" (modelled seconds per
 * step), or "wait": the part of the load the step waits for (all of it
 * without prefetch, max(0, load - compute) with); n = the node's loader
 * threads L.
 */
#include "cluster.h"
#include "collectives.h"
#include "loader.h"
#include "results.h"
#include "setup.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double load_s, compute_s;   /* per rank per step */
    size_t params;              /* gradient floats all-reduced */
    int steps;
} dp_model;

/* One replica: wait for its shard, compute, all-reduce (phantom: no data). */
static void replica(pw_rank *r, void *arg)
{
    dp_model *m = arg;
    pw_comm comm = coll_comm_cluster(r);
    for (int k = 0; k < m->steps; k++) {
        if (m->load_s > 0) pw_compute_seconds(r, m->load_s, "load");
        pw_compute_seconds(r, m->compute_s, "compute");
        if (comm.size > 1) coll_allreduce_ring(&comm, NULL, m->params);
    }
}

/* Median per-sample seconds of making batches (loaders) or training on them. */
static void measure(const ld_dataset *ds, double *load_s, double *compute_s)
{
    mlp_shape s = ds->c.s;
    size_t b = ds->c.batch, np = mlp_nparams(s);
    float *x = pw_alloc_floats(b * (size_t)s.d), *y = pw_alloc_floats(b * (size_t)s.o);
    float *w = pw_alloc_floats(np), *g = pw_alloc_floats(np), *scr = pw_alloc_floats((size_t)(s.k + s.o));
    mlp_init(s, w, 7);
    double tl[64], tc[64];
    int n = ds->c.batches < 64 ? ds->c.batches : 64;
    for (int k = 0; k < n; k++) {
        double t0 = pw_now();
        if (ld_make_batch(ds, k, x, y)) { fprintf(stderr, "starved_dp: batch %d failed to decode\n", k); exit(PW_EXIT_WRONG); }
        double t1 = pw_now();
        mlp_grad_sum(s, w, x, y, b, g, scr);
        mlp_sgd(w, g, np, 0.05f, b);
        double t2 = pw_now();
        tl[k] = t1 - t0;
        tc[k] = t2 - t1;
    }
    *load_s = pw_quantile(tl, n, 0.5) / (double)b;
    *compute_s = pw_quantile(tc, n, 0.5) / (double)b;
    pw_free(x); pw_free(y); pw_free(w); pw_free(g); pw_free(scr);
}

int main(int argc, char **argv)
{
    ch15_opts o = ch15_defaults();
    pw_list reps = PW_LIST(1, 2, 4, 8), loaders = PW_LIST(1, 8);
    long long global = 512;
    double load_us = 0, compute_us = 0;
    pw_cluster_flags links = pw_cluster_flag_defaults();
    enum { OWN = 5 };
    pw_opt opts[CH15_NOPTS + OWN + PW_CLUSTER_NFLAGS];
    ch15_opt_table(&o, opts);
    opts[CH15_NOPTS + 0] = (pw_opt){ "-R", "--replicas", PW_OPT_SIZES, &reps, "R[,R...]", "replica counts (default 1,2,4,8)", 1, 1024 };
    opts[CH15_NOPTS + 1] = (pw_opt){ NULL, "--node-loaders", PW_OPT_SIZES, &loaders, "L[,L...]",
                                     "loader threads of the node: the starved count first, the fix last (default 1,8)", 1, 4096 };
    opts[CH15_NOPTS + 2] = (pw_opt){ "-g", "--global-batch", PW_OPT_INT, &global, "B", "samples per step over all replicas (default 512)", 1, 1 << 24 };
    opts[CH15_NOPTS + 3] = (pw_opt){ NULL, "--load-us", PW_OPT_DOUBLE, &load_us, "US", "load time per sample instead of measuring it (0: measure)", 0, 1000000 };
    opts[CH15_NOPTS + 4] = (pw_opt){ NULL, "--compute-us", PW_OPT_DOUBLE, &compute_us, "US", "compute time per sample instead of measuring it (0: measure)", 0, 1000000 };
    pw_common_opts common;
    int nopts = CH15_NOPTS + OWN + pw_cluster_flag_opts(&links, opts + CH15_NOPTS + OWN, true);
    pw_parse_or_exit(argc, argv, "data parallelism against a starved loader, on the virtual cluster", opts, nopts, &common);
    for (int i = 0; i < reps.n; i++) {
        pw_cluster_config cfg = pw_cluster_config_for((int)reps.v[i], &links);
        pw_cluster_check_or_exit(common.prog, &cfg);
        if (reps.v[i] > global) {
            fprintf(stderr, "%s: -R %lld: more replicas than samples in the global batch (%lld)\n", common.prog, reps.v[i], global);
            return PW_EXIT_USAGE;
        }
    }
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    ld_dataset ds;
    double t_load = load_us * 1e-6, t_comp = compute_us * 1e-6;
    int measured = !(load_us > 0 && compute_us > 0);
    if (measured) {
        ch15_dataset(&o, &common, &ds);
        double ml, mc;
        measure(&ds, &ml, &mc);
        if (!(load_us > 0)) t_load = ml;
        if (!(compute_us > 0)) t_comp = mc;
        ld_dataset_free(&ds);
    }
    mlp_shape s = { 16, 64, 4 };
    size_t np = mlp_nparams(s);
    printf("per sample: load %.3f us, compute %.3f us (%s); global batch %lld, %zu gradient floats\n", t_load * 1e6,
           t_comp * 1e6, measured ? "measured on this machine" : "given", global, np);

    /* Model every configuration, check it against the closed form. */
    enum { MAXR = PW_MAX_LIST };
    double step[2][PW_MAX_LIST][MAXR], part[2][PW_MAX_LIST][MAXR][3];
    int bad = 0;
    for (int pre = 0; pre < 2; pre++)
        for (int li = 0; li < loaders.n; li++)
            for (int ri = 0; ri < reps.n; ri++) {
                int R = (int)reps.v[ri];
                double load = (double)global * t_load / (double)loaders.v[li];
                /* shards of ceil and floor: the largest sets the pace */
                double comp = ceil((double)global / R) * t_comp;
                dp_model m = { pre ? fmax(0, load - comp) : load, comp, np, 3 };
                pw_cluster_config cfg = pw_cluster_config_for(R, &links);
                pw_cluster *c = pw_cluster_create(&cfg);
                if (pw_cluster_run(c, replica, &m) != 0) { fprintf(stderr, "%s", pw_cluster_report(c)); bad = 1; }
                double t = pw_cluster_time(c) / m.steps;
                /* 2(R-1) ring steps, each one chunk; the largest chunk,
                 * ceil(n / R) floats, sets each step's pace. */
                double ar = R > 1 ? 2.0 * (R - 1) * (pw_cluster_alpha(c, 0, 1)
                                        + ceil((double)np / R) * sizeof(float) * pw_cluster_beta(c, 0, 1)) : 0;
                pw_cluster_destroy(c);
                double want = (pre ? fmax(load, comp) : load + comp) + ar;
                if (fabs(t - want) > 1e-9 * want + 1e-12 && R <= cfg.ranks_per_node) {
                    fprintf(stderr, "%s: R = %d, %lld loaders: modelled step %.6g s, closed form %.6g s\n", common.prog, R,
                            loaders.v[li], t, want);
                    bad = 1;
                }
                step[pre][li][ri] = t;
                part[pre][li][ri][0] = load;
                part[pre][li][ri][1] = comp;
                part[pre][li][ri][2] = ar;
            }
    if (bad) return PW_EXIT_WRONG;
    printf("all variants match: every modelled step equals load + compute + ring all-reduce (no prefetch)\n"
           "  or max(load, compute) + ring all-reduce (prefetch), within one node\n\n");
    const char *names[2] = { "no_prefetch", "prefetch" };
    printf("%-12s %7s %8s %11s %12s %13s %10s  %s\n", "run", "loaders", "replicas", "load ms", "compute ms", "all-reduce ms",
           "step ms", "samples/s");
    for (int pre = 0; pre < 2; pre++)
        for (int li = 0; li < loaders.n; li++)
            for (int ri = 0; ri < reps.n; ri++) {
                double *p = part[pre][li][ri], t = step[pre][li][ri];
                printf("%-12s %7lld %8lld %11.3f %12.3f %13.4f %10.3f  %9.0f\n", names[pre], loaders.v[li], reps.v[ri],
                       p[0] * 1e3, p[1] * 1e3, p[2] * 1e3, t * 1e3, (double)global / t);
                const char *what[3] = { "load", "compute", "allreduce" };
                for (int q = 0; q < 3; q++) pw_csv_quantity(csv, names[pre], loaders.v[li], (int)reps.v[ri], what[q], p[q]);
                pw_csv_quantity(csv, names[pre], loaders.v[li], (int)reps.v[ri], "step", t);
                /* the part of the load the step really waits for (all of it without prefetch) */
                pw_csv_quantity(csv, names[pre], loaders.v[li], (int)reps.v[ri], "wait", pre ? fmax(0, p[0] - p[1]) : p[0]);
            }

    /* The answers, from this run's numbers. */
    int r1 = 0, rN = reps.n - 1, lN = loaders.n - 1;
    double a = step[0][0][r1], bN = step[0][0][rN], best = step[1][lN][rN];
    printf("\nanswer: %lld -> %lld replicas with %lld loader%s and no prefetch: %.3f -> %.3f ms per step (%.2fx):\n", reps.v[r1],
           reps.v[rN], loaders.v[0], loaders.v[0] > 1 ? "s" : "", a * 1e3, bN * 1e3, a / bN);
    printf("  the compute shrank %.1fx but the load stayed %.3f ms, %.0f%% of the step at %lld replicas\n",
           part[0][0][r1][1] / part[0][0][rN][1], part[0][0][rN][0] * 1e3, 100 * part[0][0][rN][0] / bN, reps.v[rN]);
    printf("answer: the fix that matters, prefetch with %lld loader%s, at %lld replicas: %.3f -> %.3f ms (%.2fx)\n",
           loaders.v[lN], loaders.v[lN] > 1 ? "s" : "", reps.v[rN], bN * 1e3, best * 1e3, bN / best);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
