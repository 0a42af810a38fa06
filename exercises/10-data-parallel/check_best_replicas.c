/* exercises/10-data-parallel/check_best_replicas.c: the checker of exercise 10.2.
 *
 * Built with your exercises/10-data-parallel/best_replicas.c by
 * `make ex-10.2`, or with the solution by `make solution-10.2`. For each of
 * seven settings (the chapter's default job, a small model, a huge batch, a
 * slow network, a step too small to split, nodes of 4 with faster devices,
 * and a job whose step time dips at one node, rises on two, then falls
 * again: a search that stops at the first rise ends in the wrong minimum)
 * it simulates one training step on R = 1, 2, 4, ..., 1024 replicas of the
 * virtual cluster, as chapters/10-data-parallel/scaling.c does: every rank
 * computes 6 P T / R flops, then the ring all-reduce of kernels/collectives.c
 * moves P floats as phantom messages (cluster.h: the clocks, not the data).
 * All ranks start the all-reduce at the same clock, so the step is the
 * compute plus the all-reduce simulated alone; that depends only on P and
 * the links, so the seven settings need four simulations (each R up to
 * 1024: 2R(R-1) messages, 2 million at R = 1024), not seven.
 *   1. Your predict_step_time(s, R) must equal the simulated step to
 *      relative error 1e-9 for every R: with P a multiple of 1024 the ring's
 *      chunks are equal and the cluster follows the closed form exactly
 *      (tests/test_cluster.c asserts the same), so any gap is a term of the
 *      model missing or wrong, and the checker says which (compute or
 *      communication, and at which R).
 *   2. Your best_replicas(s) must be the R of the lowest simulated step, or
 *      a neighbouring power of two (R/2 or 2R) whose step is within 3% of
 *      the lowest. Why allow it: near the minimum the curve is flat, and two
 *      steps 3% apart are a tie in practice (a real cluster's step times
 *      jitter by more than that); a rule of thumb such as R* = sqrt(C / 2
 *      alpha) rounded to a power of two may land on either side. A choice
 *      further off costs more than noise, and fails.
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "best_replicas.h"
#include "cluster.h"
#include "collectives.h"

#define NR 11                /* R = 1, 2, 4, ..., 1024 */
#define NS 7                 /* settings */
#define NEAR_TIE 0.03        /* a neighbour this close to the best step counts (see above) */

typedef struct {
    const char *name;
    dp_setting s;
} setting;

/* One rank's all-reduce of P floats, as phantom messages (cluster.h). */
static void one_ring(pw_rank *r, void *arg)
{
    pw_comm comm = coll_comm_cluster(r);
    coll_allreduce_ring(&comm, NULL, *(const size_t *)arg);
}

/* The simulated all-reduce on R replicas: the ring's time on the cluster
 * alone (every rank computes the same flops first, so each starts it at the
 * same clock, and the step is its compute plus this; adding the compute
 * before or after moves the sum only by rounding, under 1e-13 of it with
 * these settings, where the check allows 1e-9). It depends on P and the
 * links only, not on the batch or the device rate: settings that share
 * them share the simulation. */
static double simulate_ring(const dp_setting *s, int R)
{
    pw_cluster_config cfg = pw_cluster_defaults(R);
    cfg.ranks_per_node = R < s->ranks_per_node ? R : s->ranks_per_node;
    cfg.intra_alpha = s->intra_alpha;
    cfg.intra_gbs = s->intra_gbs;
    cfg.inter_alpha = s->inter_alpha;
    cfg.inter_gbs = s->inter_gbs;
    cfg.device_gflops = s->device_gflops;
    char why[200];
    if (pw_cluster_validate(&cfg, why, sizeof why)) { fprintf(stderr, "checker: bad setting: %s\n", why); exit(2); }
    pw_cluster *c = pw_cluster_create(&cfg);
    size_t nparams = (size_t)s->params;
    if (pw_cluster_run(c, one_ring, &nparams) != PW_CLUSTER_OK) {
        fprintf(stderr, "checker: the simulation deadlocked (a bug in the checker):\n%s", pw_cluster_report(c));
        exit(2);
    }
    double t = pw_cluster_time(c);
    pw_cluster_destroy(c);
    return t;
}

static bool same_links(const dp_setting *a, const dp_setting *b)
{
    return a->params == b->params && a->ranks_per_node == b->ranks_per_node && a->intra_alpha == b->intra_alpha &&
           a->intra_gbs == b->intra_gbs && a->inter_alpha == b->inter_alpha && a->inter_gbs == b->inter_gbs;
}

static int index_of(int R)
{
    for (int i = 0; i < NR; i++)
        if (R == 1 << i) return i;
    return -1;
}

static bool near(double got, double want, double scale) { return fabs(got - want) <= 1e-9 * scale; }

/* Likely mistakes, for the explanations only: the ring's time with the
 * message being a chunk or the whole gradient, its bandwidth term exact or
 * 2 n beta, on the link R needs or the other one. */
static double ring_guess(const dp_setting *s, int R, bool chunked, bool two_n_beta, bool other_link)
{
    bool inter = (R > s->ranks_per_node) != other_link;
    double alpha = inter ? s->inter_alpha : s->intra_alpha;
    double beta = 1 / ((inter ? s->inter_gbs : s->intra_gbs) * 1e9);
    double n = 4 * s->params;
    if (two_n_beta) return 2 * (R - 1) * alpha + 2 * n * beta;
    return 2 * (R - 1) * (alpha + (chunked ? n / R : n) * beta);
}

/* The ring's time on the link R needs, with `steps` x messages of
 * 4P/R bytes, their latency counted `with_alpha` times and their bytes
 * `with_beta` times: (2, 1, 1) is the ring, (1, 1, 1) half of it (the
 * reduce-scatter alone), (2, 0, 1) the ring without latency. */
static double ring_part(const dp_setting *s, int R, int steps, int with_alpha, int with_beta)
{
    bool inter = R > s->ranks_per_node;
    double alpha = inter ? s->inter_alpha : s->intra_alpha;
    double beta = 1 / ((inter ? s->inter_gbs : s->intra_gbs) * 1e9);
    return steps * (R - 1) * (with_alpha * alpha + with_beta * 4 * s->params / R * beta);
}

/* Whether the learner's predictions follow one mistaken guess at every R > 1. */
static bool guess_fits(const setting *st, const double *comp, bool chunked, bool two_n_beta, bool other_link)
{
    for (int i = 1; i < NR; i++) {
        double want = comp[i] + ring_guess(&st->s, 1 << i, chunked, two_n_beta, other_link);
        if (!near(predict_step_time(&st->s, 1 << i), want, want)) return false;
    }
    return true;
}

/* 1. every predicted step against the simulation; explain the first gap */
static bool check_predictions(const setting *st, const double *sim, const double *comp)
{
    for (int i = 0; i < NR; i++) {
        int R = 1 << i;
        double got = predict_step_time(&st->s, R);
        if (isfinite(got) && fabs(got - sim[i]) <= 1e-9 * sim[i]) continue;
        double comm = sim[i] - comp[i];
        printf("wrong\nFAIL: %s, R = %d: you predict %.6g ms, the simulated step is %.6g ms\n",
               st->name, R, got * 1e3, sim[i] * 1e3);
        printf("  simulated: compute %.6g ms + ring all-reduce %.6g ms\n", comp[i] * 1e3, comm * 1e3);
        if (!isfinite(got))
            printf("  your prediction is not a number: a division by zero (R - 1 = 0 at R = 1?)\n");
        else if (R == 1)
            printf("  one replica has nothing to all-reduce: the step is its compute, 6 P T / rate\n");
        else if (fabs(got - comp[i]) <= 1e-9 * sim[i])
            printf("  you left out the all-reduce: every step with R > 1 ends with one ring all-reduce\n");
        else if (fabs(got - comm) <= 1e-9 * sim[i])
            printf("  that is the all-reduce alone: add the compute, 6 P (T / R) flops at the device rate\n");
        else if (near(got, comp[i] + ring_part(&st->s, R, 2, 0, 1), sim[i]))
            printf("  the ring's latency is missing: each of its 2(R-1) messages costs alpha + bytes x beta,\n"
                   "  and the 2(R-1) alpha is what grows with R and ends the scaling\n");
        else if (near(got, comp[i] + ring_part(&st->s, R, 1, 1, 1), sim[i]))
            printf("  that is half the ring: the reduce-scatter's R-1 messages. The all-gather that follows sends\n"
                   "  R-1 more of the same size: 2(R-1)(alpha + (4P/R) beta) in all\n");
        else if (near(got, R * comp[i] + ring_part(&st->s, R, 2, 1, 1), sim[i]))
            printf("  the all-reduce is right, the compute is the whole batch's: with the global batch fixed each\n"
                   "  replica computes on its share, 6 P (T / R) flops\n");
        else if (guess_fits(st, comp, false, false, false))
            printf("  each of the ring's 2(R-1) messages carries one chunk, 4P/R bytes, not the whole gradient\n");
        else if (guess_fits(st, comp, true, true, false))
            printf("  2(R-1) alpha + 2 n beta is the large-R approximation: the ring moves 2(R-1) chunks of\n"
                   "  n/R bytes, 2(R-1)/R n in all (at R = 2 that is n, half of 2n)\n");
        else if (near(got, comp[i] + ring_guess(&st->s, R, true, false, true), sim[i]))
            printf("  the right formula on the wrong link: %d replicas %s\n", R,
                   R <= st->s.ranks_per_node ? "fit in one node and use the intra-node link"
                                             : "span nodes, so every ring step waits for the inter-node link");
        else if (R > st->s.ranks_per_node)
            printf("  %d replicas span %d nodes: every ring step waits for the slowest link, so the ring\n"
                   "  runs at the inter-node alpha and beta (2(R-1) messages of 4P/R bytes)\n",
                   R, R / st->s.ranks_per_node);
        else
            printf("  %d replicas fit in one node of %d: the ring uses the intra-node link, 2(R-1)\n"
                   "  messages of 4P/R bytes each costing alpha + bytes / (GB/s * 1e9)\n", R, st->s.ranks_per_node);
        return false;
    }
    return true;
}

/* 2. the best R against the simulation's */
static bool check_best(const setting *st, const double *sim)
{
    int best = 0;
    for (int i = 1; i < NR; i++)
        if (sim[i] < sim[best]) best = i;
    int got = best_replicas(&st->s), gi = index_of(got);
    printf("best R = %d (%.4g ms), you said %d ", 1 << best, sim[best] * 1e3, got);
    if (gi == best) { printf("ok\n"); return true; }
    if (gi < 0) {
        printf("wrong\nFAIL: %s: %d is not a power of two from 1 to 1024\n", st->name, got);
        return false;
    }
    double worse = sim[gi] / sim[best] - 1;
    if (abs(gi - best) == 1 && worse <= NEAR_TIE) {
        printf("ok (a near tie: %.1f%% slower)\n", 100 * worse);
        return true;
    }
    printf("wrong\nFAIL: %s: R = %d is lowest (%.4g ms); your R = %d takes %.4g ms, %.0f%% longer\n",
           st->name, 1 << best, sim[best] * 1e3, got, sim[gi] * 1e3, 100 * worse);
    bool local_min = gi == 0 ? sim[0] < sim[1]
                   : gi == NR - 1 ? sim[NR - 1] < sim[NR - 2]
                   : sim[gi] < sim[gi - 1] && sim[gi] < sim[gi + 1];
    if (local_min)
        printf("  a local minimum: the step time rises after R = %d (the ring leaves the node or the\n"
               "  latency term grows) and falls again later. Compare all eleven powers of two, not only\n"
               "  until the first rise\n", got);
    else
        printf("  compare predict_step_time over all eleven powers of two and keep the lowest (a rule of\n"
               "  thumb like sqrt(C / 2 alpha) ignores where the ring changes link at the node size)\n");
    return false;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    /* P multiples of 1024 (see above). Defaults as in common/cluster/cluster.h. */
    const dp_setting base = { 25165824, 524288, PW_CLUSTER_DEVICE_GFLOPS, PW_CLUSTER_RANKS_PER_NODE,
                              PW_CLUSTER_INTRA_ALPHA, PW_CLUSTER_INTRA_GBS, PW_CLUSTER_INTER_ALPHA, PW_CLUSTER_INTER_GBS };
    setting settings[NS];
    for (int k = 0; k < NS; k++) settings[k].s = base;
    settings[0].name = "24M parameters, 512K tokens (the chapter's job)";
    settings[1].name = "1M parameters, 64K tokens";
    settings[1].s.params = 1048576;
    settings[1].s.tokens = 65536;
    settings[2].name = "24M parameters, 64M tokens (a huge batch)";
    settings[2].s.tokens = 67108864;
    settings[3].name = "24M parameters, 512K tokens, 100 Gb/s Ethernet, 20 us";
    settings[3].s.inter_gbs = 12.5;
    settings[3].s.inter_alpha = 20e-6;
    settings[4].name = "1M parameters, 128 tokens (too little to split)";
    settings[4].s.params = 1048576;
    settings[4].s.tokens = 128;
    settings[5].name = "24M parameters, 512K tokens, 4 per node, 400 TFLOP/s";
    settings[5].s.ranks_per_node = 4;
    settings[5].s.device_gflops = 400e3;
    settings[6].name = "24M parameters, 32K tokens (a dip at one node)";
    settings[6].s.tokens = 32768;

    printf("exercise 10.2: predict_step_time() and best_replicas() against the virtual cluster\n");
    int failures = 0;
    static double ring[NS][NR];           /* the simulated all-reduce, per setting and R */
    for (int k = 0; k < NS; k++) {
        const setting *st = &settings[k];
        double sim[NR], comp[NR];
        int same = 0;                     /* an earlier setting with the same P and links, or k */
        while (same < k && !same_links(&settings[same].s, &st->s)) same++;
        for (int i = 0; i < NR; i++) {
            int R = 1 << i;
            if (same == k) ring[k][i] = R > 1 ? simulate_ring(&st->s, R) : 0;
            else ring[k][i] = ring[same][i];
            comp[i] = 6.0 * st->s.params * st->s.tokens / R / (st->s.device_gflops * 1e9);
            sim[i] = comp[i] + ring[k][i];
        }
        printf("  %-56s ", st->name);
        if (!check_predictions(st, sim, comp)) { failures++; continue; }
        printf("step times ok; ");
        failures += !check_best(st, sim);
    }
    if (failures) {
        printf("FAIL: %d of %d settings wrong\n", failures, NS);
        return 1;
    }
    return pw_ex_pass("step times equal the simulation for R = 1..1024, and the best replica count is found");
}
