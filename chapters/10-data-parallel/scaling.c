/* chapters/10-data-parallel/scaling.c: one training step of a modelled model
 * on 1 to 1024 data-parallel replicas of the virtual cluster: where adding
 * devices stops paying.
 *
 *   ./build/ch10/scaling                        25M parameters, 512K tokens a step
 *   ./build/ch10/scaling --params 100M -R 1,8,64,512
 *   ./build/ch10/scaling --inter-gbs 25 --inter-alpha 10     other links (cluster.h)
 *
 * A step is: each replica computes forward + backward on its share of the
 * global batch (6 flops per parameter per token, at the device rate), then
 * the gradients (4 bytes per parameter) are all-reduced. The messages are
 * phantoms (cluster.h): the clocks are exact, no gradient is stored.
 *
 * 1. Check: every simulated step equals compute + the closed form of its
 *    all-reduce (ring and tree) to 1e-9, before any table is printed.
 * 2. Strong scaling (fixed global batch): compute falls as 1/R, the ring's
 *    bandwidth term stays near 2 n beta and its latency term 2(R-1) alpha
 *    grows: the step time has a minimum. The table's grid is coarse, so the
 *    minimum over every R that fills whole nodes is found from the closed
 *    form (checked against the simulation in step 1), then simulated with
 *    its neighbours; both are printed, beside the continuous model's
 *    sqrt(C / 2 alpha).
 * 3. Weak scaling (fixed batch per replica): the work grows with R, the step
 *    time creeps up only by the communication.
 * 4. Stragglers: one replica 1.5x slower, and half of them 1.2x slower.
 * 5. Gradient accumulation: k micro-batches per all-reduce.
 *
 * CSV: threads = replicas; variant = the experiment; param = which time
 * ("step", "compute", "comm") or which straggler case; n = tokens per step
 * (for "accumulate": the micro-batches per all-reduce, k).
 */
#include "cluster.h"
#include "collectives.h"
#include "options.h"
#include "results.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pw_cluster_flags links;     /* --intra-alpha ... --per-node (cluster.h) */

typedef struct {
    coll_allreduce_fn allreduce;
    size_t nparams;
    double flops;           /* per replica per micro-batch */
    int micro;              /* micro-batches before the all-reduce */
} step_job;

static void one_step(pw_rank *r, void *arg)
{
    step_job *j = arg;
    pw_comm comm = coll_comm_cluster(r);
    for (int m = 0; m < j->micro; m++) pw_compute(r, j->flops, "compute");
    if (pw_rank_size(r) > 1) j->allreduce(&comm, NULL, j->nparams);
}

typedef struct { double step, compute; } step_time;

/* Simulate one step on R replicas with default links; slow may be NULL. */
static step_time simulate(int R, coll_allreduce_fn fn, size_t nparams, double flops, int micro,
                          const double *slow)
{
    pw_cluster_config cfg = pw_cluster_config_for(R, &links);
    cfg.slow = slow;
    pw_cluster *c = pw_cluster_create(&cfg);
    step_job j = { fn, nparams, flops, micro };
    if (pw_cluster_run(c, one_step, &j) != 0) { fprintf(stderr, "%s", pw_cluster_report(c)); exit(PW_EXIT_WRONG); }
    step_time t = { pw_cluster_time(c), micro * flops / (cfg.device_gflops * 1e9) };
    pw_cluster_destroy(c);
    return t;
}

/* The closed form of the same step (all replicas equal). */
static double predicted(int R, const char *algo, size_t nparams, double compute)
{
    if (R == 1) return compute;
    pw_cluster_config cfg = pw_cluster_config_for(R, &links);
    bool multi = R > cfg.ranks_per_node;
    double a = multi ? cfg.inter_alpha : cfg.intra_alpha;
    double b = 1 / ((multi ? cfg.inter_gbs : cfg.intra_gbs) * 1e9);
    return compute + (!strcmp(algo, "ring") ? coll_model_ring(R, nparams, 4, a, b)
                                            : coll_model_tree(R, nparams, 4, a, b));
}

static const coll_allreduce_algo *algo(const char *name)
{
    for (int a = 0; a < coll_allreduce_nalgos; a++)
        if (!strcmp(coll_allreduce_algos[a].name, name)) return &coll_allreduce_algos[a];
    return NULL;
}

int main(int argc, char **argv)
{
    /* Empty or -1: not given; the defaults below (smaller under --tiny). Flags given win. */
    pw_list reps = { .n = 0 }, accum = { .n = 0 };
    long long params = 25000000, tokens = 524288, per_replica = 4096, straggle_R = -1, accum_R = 256;
    double straggle = 1.5;
    links = pw_cluster_flag_defaults();
    pw_opt opts[7 + PW_CLUSTER_NFLAGS] = {
        { NULL, "--params", PW_OPT_INT, &params, "N", "parameters of the modelled model (default 25M)", 1, 1LL << 40 },
        { NULL, "--tokens", PW_OPT_INT, &tokens, "N", "global batch in tokens for strong scaling (default 512K)", 1, 1LL << 40 },
        { NULL, "--per-replica", PW_OPT_INT, &per_replica, "N", "tokens per replica for weak scaling (default 4096)", 1, 1LL << 40 },
        { "-R", "--replicas", PW_OPT_SIZES, &reps, "R[,R...]", "replica counts (up to one node, then whole nodes)", 1, 4096 },
        { NULL, "--straggler", PW_OPT_DOUBLE, &straggle, "F", "slow factor of the straggler (default 1.5)", 1, 100 },
        { NULL, "--straggler-replicas", PW_OPT_INT, &straggle_R, "R", "replicas in the straggler experiment (default 64)", 2, 4096 },
        { "-k", "--accumulate", PW_OPT_SIZES, &accum, "K[,K...]", "micro-batches per all-reduce (default 1,2,4,8,16)", 1, 1024 },
    };
    pw_common_opts common;
    int nopts = 7 + pw_cluster_flag_opts(&links, opts + 7, true);
    pw_parse_or_exit(argc, argv, "strong and weak scaling of data-parallel training on the virtual cluster",
                     opts, nopts, &common);
    if (!reps.n) reps = common.tiny ? (pw_list)PW_LIST(1, 2, 8, 16, 64) : (pw_list)PW_LIST(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024);
    if (!accum.n) accum = common.tiny ? (pw_list)PW_LIST(1, 4) : (pw_list)PW_LIST(1, 2, 4, 8, 16);
    if (straggle_R < 0) straggle_R = common.tiny ? 16 : 64;
    if (common.tiny) accum_R = 16;
    for (int i = 0; i < reps.n; i++) {
        pw_cluster_config cfg = pw_cluster_config_for((int)reps.v[i], &links);
        pw_cluster_check_or_exit(common.prog, &cfg);
    }
    pw_cluster_config scfg = pw_cluster_config_for((int)straggle_R, &links);
    pw_cluster_check_or_exit(common.prog, &scfg);

    /* Opened before any rank runs: an unwritable path is refused (exit 2)
     * before the fibers start, as on every other bad input. */
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    size_t P = (size_t)params;
    double rate = links.device_tflops * 1e12;
    double step_flops = 6.0 * (double)params * (double)tokens;   /* forward 2, backward 4 per parameter per token */
    const char *names[2] = { "ring", "tree" };

    /* 1. the simulation against the closed forms */
    double worst = 0;
    for (int i = 0; i < reps.n; i++) {
        int R = (int)reps.v[i];
        bool pow2 = (R & (R - 1)) == 0;
        for (int a = 0; a < 2; a++) {
            if (!pow2 || (!strcmp(names[a], "ring") && P % (size_t)R)) continue;   /* closed forms exact only here */
            step_time t = simulate(R, algo(names[a])->fn, P, step_flops / R, 1, NULL);
            double want = predicted(R, names[a], P, t.compute);
            /* A tree across nodes uses the fast link in its lower rounds: the
             * inter-node formula is then an upper bound, not an equality. */
            if (a == 1 && R > links.per_node) worst = fmax(worst, (t.step - want) / want);
            else worst = fmax(worst, fabs(t.step - want) / want);
        }
    }
    if (worst > 1e-9) {
        fprintf(stderr, "%s: simulated step differs from compute + closed form by %.2g (relative); nothing printed\n",
                common.prog, worst);
        return PW_EXIT_WRONG;
    }
    printf("all variants match: simulated steps equal compute + closed-form all-reduce (largest relative gap %.1e)\n\n", worst);

    char gb[32];
    pw_csv_meta(csv, "params", "%lld", params);
    pw_csv_meta(csv, "tokens", "%lld", tokens);
    pw_csv_meta(csv, "device_gflops", "%g", links.device_tflops * 1e3);
    pw_csv_meta(csv, "links", "intra %g us %g GB/s, inter %g us %g GB/s, %lld per node", links.intra_alpha_us,
                links.intra_gbs, links.inter_alpha_us, links.inter_gbs, links.per_node);
    printf("model: %lld parameters (%s of fp32 gradients), %lld tokens a step, 6 flops per parameter per token\n",
           params, pw_fmt_bytes(4.0 * params, gb, sizeof gb), tokens);
    printf("devices: %g TFLOP/s; %lld per node, %g GB/s and %g us latency inside a node, %g GB/s and %g us between nodes\n\n",
           links.device_tflops, links.per_node, links.intra_gbs, links.intra_alpha_us, links.inter_gbs, links.inter_alpha_us);

    /* 2. strong scaling */
    printf("strong scaling: the global batch split R ways\n");
    printf("%8s %12s %12s %12s %9s %11s %14s\n", "replicas", "compute", "ring comm", "ring step", "speedup", "efficiency", "tree step");
    double t1 = step_flops / rate, best = INFINITY;   /* one device: all compute, no all-reduce */
    int best_R = 1;
    for (int i = 0; i < reps.n; i++) {
        int R = (int)reps.v[i];
        step_time ring = simulate(R, coll_allreduce_ring, P, step_flops / R, 1, NULL);
        step_time tree = simulate(R, coll_allreduce_tree, P, step_flops / R, 1, NULL);
        double speedup = t1 / ring.step;
        printf("%8d %9.3f ms %9.3f ms %9.3f ms %8.1fx %10.1f%% %11.3f ms\n", R, ring.compute * 1e3,
               (ring.step - ring.compute) * 1e3, ring.step * 1e3, speedup, 100 * speedup / R, tree.step * 1e3);
        if (ring.step < best) { best = ring.step; best_R = R; }
        pw_csv_value(csv, "strong_ring", tokens, R, "step", ring.step, step_flops, 0);
        pw_csv_value(csv, "strong_ring", tokens, R, "compute", ring.compute, step_flops, 0);
        pw_csv_value(csv, "strong_ring", tokens, R, "comm", ring.step - ring.compute, 0, 4.0 * params);
        pw_csv_value(csv, "strong_tree", tokens, R, "step", tree.step, step_flops, 0);
    }
    /* The grid above is coarse. Every R up to the largest in the table that
     * fills whole nodes, by the closed form (step 1 checked it against the
     * simulation), then the best one and its neighbours simulated. */
    int Rmax = (int)pw_list_max(&reps), pn = (int)links.per_node, opt_R = 1;
    double opt_model = INFINITY;
    for (int R = 1; R <= Rmax; R++) {
        if (R > pn && R % pn) continue;
        double t = predicted(R, "ring", P, step_flops / rate / R);
        if (t < opt_model) { opt_model = t; opt_R = R; }
    }
    int step_R = opt_R > pn ? pn : 1, cand[3] = { opt_R - step_R, opt_R, opt_R + step_R };
    double opt = INFINITY;
    int opt_sim_R = opt_R;
    printf("lowest step time in the table: %.3f ms at R = %d replicas (ring)\n", best * 1e3, best_R);
    printf("every R from 1 to %d that fills whole nodes, by the closed form, then simulated around its minimum:\n ", Rmax);
    for (int k = 0; k < 3; k++) {
        if (cand[k] < 1 || cand[k] > Rmax) continue;
        double t = simulate(cand[k], coll_allreduce_ring, P, step_flops / cand[k], 1, NULL).step;
        printf(" R = %d: %.3f ms;", cand[k], t * 1e3);
        if (t < opt) { opt = t; opt_sim_R = cand[k]; }
        pw_csv_value(csv, "optimum_ring", tokens, cand[k], "step", t, step_flops, 0);
    }
    printf("\n  lowest: %.3f ms at R = %d", opt * 1e3, opt_sim_R);
    if (opt_sim_R != best_R) printf(", %.2f%% below the table's best at R = %d", 100 * (1 - opt / best), best_R);
    printf("\n");
    /* what the run shows past the minimum */
    double last = INFINITY;
    int last_R = 0;
    for (int i = 0; i < reps.n; i++) if (reps.v[i] == Rmax) last_R = Rmax;
    if (last_R) last = simulate(Rmax, coll_allreduce_ring, P, step_flops / Rmax, 1, NULL).step;
    if (opt_sim_R < Rmax && last > opt)
        printf("  past it more replicas make the step slower: R = %d takes %.3f ms, %.0f%% more than R = %d\n",
               Rmax, last * 1e3, 100 * (last / opt - 1), opt_sim_R);
    else
        printf("  the step time still falls at the largest R tried (%d): more replicas would still pay\n", Rmax);
    /* Theory, labelled: T(R) = C/R + 2(R-1) alpha + ~2 n beta is lowest where
     * C/R^2 = 2 alpha, at R* = sqrt(C / (2 alpha)). */
    pw_cluster_config big = pw_cluster_config_for(Rmax, &links);
    double C = step_flops / rate, a_inter = Rmax > pn ? big.inter_alpha : big.intra_alpha;
    double rstar = a_inter > 0 ? sqrt(C / (2 * a_inter)) : INFINITY;
    printf("  theory: C/R + 2(R-1) alpha is lowest at R* = sqrt(C / 2 alpha) = sqrt(%.3f ms / (2 x %g us)) = %.0f\n",
           C * 1e3, a_inter * 1e6, rstar);
    if (opt_sim_R < Rmax && last > opt)
        printf("answer: the step is lowest at R = %d replicas (%.3f ms); R = %d takes %.2fx as long (theory: R* = %.0f)\n\n",
               opt_sim_R, opt * 1e3, Rmax, last / opt, rstar);
    else
        printf("answer: not shown on this run: the step still falls at the largest R tried (%d, %.3f ms); the\n"
               "  theory puts the lowest at R* = %.0f\n\n", Rmax, opt * 1e3, rstar);
    pw_csv_meta(csv, "best_replicas", "%d", opt_sim_R);
    pw_csv_meta(csv, "best_step_s", "%.9g", opt);
    pw_csv_meta(csv, "table_best_replicas", "%d", best_R);
    pw_csv_meta(csv, "model_best_replicas", "%.1f", rstar);

    /* 3. weak scaling */
    printf("weak scaling: %lld tokens per replica, the global batch grows with R\n", per_replica);
    printf("%8s %12s %12s %11s\n", "replicas", "step", "tokens/s", "efficiency");
    double w1 = 6.0 * (double)params * (double)per_replica / rate;   /* one replica's step */
    for (int i = 0; i < reps.n; i++) {
        int R = (int)reps.v[i];
        double f = 6.0 * (double)params * (double)per_replica;
        step_time t = simulate(R, coll_allreduce_ring, P, f, 1, NULL);
        printf("%8d %9.3f ms %12.3g %10.1f%%\n", R, t.step * 1e3, (double)per_replica * R / t.step, 100 * w1 / t.step);
        pw_csv_value(csv, "weak_ring", per_replica * R, R, "step", t.step, f * R, 0);
        pw_csv_value(csv, "weak_ring", per_replica * R, R, "compute", t.compute, f * R, 0);
    }

    /* 4. stragglers */
    int SR = (int)straggle_R;
    double *slow = malloc((size_t)SR * sizeof *slow);
    double f = step_flops / SR;
    printf("\nstragglers: %d replicas, strong scaling's batch (%.3f ms of compute each)\n", SR, f / rate * 1e3);
    struct { const char *name; int count; double factor; } cases[] = {
        { "none", 0, 1.0 }, { "one_slow", 1, straggle }, { "one_1.2x", 1, 1.2 }, { "half_1.2x", SR / 2, 1.2 },
    };
    double base = 0, st[4];
    for (int k = 0; k < 4; k++) {
        for (int r = 0; r < SR; r++) slow[r] = r < cases[k].count ? cases[k].factor : 1.0;
        /* the straggler sits mid-ring, not at rank 0: nothing special about 0 */
        if (cases[k].count == 1) { slow[0] = 1.0; slow[SR / 2 + 1] = cases[k].factor; }
        step_time t = simulate(SR, coll_allreduce_ring, P, f, 1, slow);
        if (k == 0) base = t.step;
        st[k] = t.step;
        printf("  %-10s step %8.3f ms  (%+.1f%%)\n", cases[k].name, t.step * 1e3, 100 * (t.step / base - 1));
        pw_csv_value(csv, "straggler", tokens, SR, cases[k].name, t.step, step_flops, 0);
    }
    free(slow);
    /* What these four numbers say, from the numbers: the delay against the
     * straggler's own extra compute, and half the replicas slow against one. */
    double extra = (straggle - 1) * f / rate;
    printf("  one replica %.2gx slower: the step grows by %.3f ms, %.0f%% of that replica's own extra compute (%.3f ms):\n"
           "    %s\n", straggle, (st[1] - st[0]) * 1e3, 100 * (st[1] - st[0]) / extra, extra * 1e3,
           st[1] - st[0] > 0.9 * extra ? "the others wait for it at the all-reduce" :
           st[1] - st[0] > 0 ? "part of its delay hides in the others' communication" : "it costs the step nothing");
    double rel = fabs(st[3] - st[2]) / base;
    if (rel < 0.01)
        printf("  half the replicas at 1.2x cost what one does (%+.1f%% against %+.1f%%): the slowest sets the pace, not the average\n",
               100 * (st[3] / base - 1), 100 * (st[2] / base - 1));
    else
        printf("  half the replicas at 1.2x cost %+.1f%%, one of them %+.1f%%: %.1f points apart\n",
               100 * (st[3] / base - 1), 100 * (st[2] / base - 1), 100 * rel);
    printf("answer: one replica of %d at %.2gx made the step %.1f%% slower (%.0f%% of its own extra compute); half of\n"
           "  them at 1.2x cost %+.1f%% against one's %+.1f%%\n", SR, straggle, 100 * (st[1] / base - 1),
           100 * (st[1] - st[0]) / extra, 100 * (st[3] / base - 1), 100 * (st[2] / base - 1));

    /* 5. gradient accumulation: k micro-batches, then one all-reduce */
    int AR = (int)accum_R;
    pw_cluster_config acfg = pw_cluster_config_for(AR, &links);
    pw_cluster_check_or_exit(common.prog, &acfg);
    double micro_flops = 6.0 * (double)params * (double)per_replica;
    printf("\ngradient accumulation: %d replicas, micro-batches of %lld tokens, one all-reduce per k of them\n", AR, per_replica);
    printf("%4s %12s %12s %14s %10s\n", "k", "step", "comm share", "tokens/s", "vs k=1");
    double thr1 = 0, thr_last = 0, share1 = 0, share_last = 0;
    for (int i = 0; i < accum.n; i++) {
        int k = (int)accum.v[i];
        step_time t = simulate(AR, coll_allreduce_ring, P, micro_flops, k, NULL);
        double thr = (double)per_replica * k * AR / t.step;
        if (i == 0) thr1 = thr;
        double share = (t.step - t.compute) / t.step;
        if (i == 0) share1 = share;
        thr_last = thr;
        share_last = share;
        printf("%4d %9.3f ms %11.1f%% %14.3g %9.2fx\n", k, t.step * 1e3, 100 * (t.step - t.compute) / t.step, thr, thr / thr1);
        pw_csv_value(csv, "accumulate", k, AR, "step", t.step, micro_flops * k * AR, 0);
        pw_csv_value(csv, "accumulate", k, AR, "compute", t.compute, micro_flops * k * AR, 0);
    }
    if (accum.n > 1)
        printf("answer: one all-reduce per k = %lld micro-batches instead of k = %lld took communication from %.1f%% of\n"
               "  the step to %.1f%% and raised throughput %.2fx\n", accum.v[accum.n - 1], accum.v[0], 100 * share1,
               100 * share_last, thr_last / thr1);
    else
        printf("answer: not shown on this run: one k only (-k), nothing to compare\n");
    return pw_csv_close(csv);
}
