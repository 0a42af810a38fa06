/* chapters/10-data-parallel/overlap.c: one training step, traced on every
 * rank, with and without overlapping the all-reduce with the backward pass,
 * and with a straggler: the data for the Gantt chart.
 *
 *   ./build/ch10/overlap                        8 replicas on 2 nodes of 4, 4 layers
 *   ./build/ch10/overlap -L 8 --layer-params 2M
 *   ./build/ch10/overlap --inter-gbs 25        other links (cluster.h)
 *
 * Scenarios (one step each, phantom gradients, modelled time):
 *   no_overlap   forward, backward, then one all-reduce of all gradients
 *   overlap      the gradients in buckets, one per layer: as soon as the
 *                backward pass has a layer's gradients (last layer first),
 *                its all-reduce starts on a second stream while the backward
 *                pass goes on; the step ends when the last bucket is reduced
 *   straggler    overlap, with rank 3 computing 1.5x slower
 * The second stream is modelled with the rank's clock: remember the compute
 * clock, run the collective from when the communication stream is free, note
 * when it ends, put the compute clock back (cluster.h, pw_rank_set_now).
 *
 * Check: no_overlap's step equals forward + backward + the ring's closed form
 * to 1e-9, overlap is never slower, and never faster than the compute alone.
 *
 * CSV, one kind=event row per traced event (a Gantt bar; common/results.h):
 * variant = the event ("forward", "backward", "send", "recv"), threads = the
 * rank, param = the scenario, n = the peer rank (-1 for compute), bytes =
 * bytes sent or received, and the interval on the modelled clock in min_s
 * (start) and max_s (end), its length in median_s. A recv bar
 * runs from when the rank asked for the data to when it had it: waiting
 * included. Then one row per scenario: variant "step", the step time.
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

typedef struct {
    int layers;
    size_t layer_params;
    double tokens;          /* per replica */
    bool overlap;
} step_job;

static void one_step(pw_rank *r, void *arg)
{
    step_job *j = arg;
    pw_comm comm = coll_comm_cluster(r);
    double per_layer = 2.0 * (double)j->layer_params * j->tokens;   /* forward flops of one layer */
    for (int l = 0; l < j->layers; l++) pw_compute(r, per_layer, "forward");
    double comm_free = 0;
    for (int l = j->layers - 1; l >= 0; l--) {
        pw_compute(r, 2 * per_layer, "backward");                    /* backward: twice the forward */
        if (!j->overlap) continue;
        double now = pw_rank_now(r);
        pw_rank_set_now(r, fmax(now, comm_free));                    /* the comm stream picks up the bucket */
        coll_allreduce_ring(&comm, NULL, j->layer_params);
        comm_free = pw_rank_now(r);
        pw_rank_set_now(r, now);                                     /* back on the compute stream */
    }
    if (j->overlap) pw_rank_set_now(r, fmax(pw_rank_now(r), comm_free));   /* wait for the last bucket */
    else coll_allreduce_ring(&comm, NULL, j->layer_params * (size_t)j->layers);
}

/* Write one event as a Gantt row (layout in the header comment). */
static void write_event(pw_csv *csv, const pw_trace_event *e, const char *scenario)
{
    pw_csv_event(csv, e->kind, e->peer, e->rank, scenario, e->start, e->end, e->bytes);
}

int main(int argc, char **argv)
{
    long long ranks = -1, per_node = -1, layers = -1,   /* -1: not given; the defaults below */ layer_params = 4 << 20, tokens = 8192, slow_rank = 3;
    double straggle = 1.5;
    pw_cluster_flags links = pw_cluster_flag_defaults();
    pw_opt opts[6 + PW_CLUSTER_NFLAGS] = {
        { "-p", "--ranks", PW_OPT_INT, &ranks, "P", "replicas (default 8)", 1, 1024 },
        { NULL, "--per-node", PW_OPT_INT, &per_node, "N", "replicas per node (default 4: two nodes)", 1, 1024 },
        { "-L", "--layers", PW_OPT_INT, &layers, "L", "layers, one gradient bucket each (default 4)", 1, 256 },
        { NULL, "--layer-params", PW_OPT_INT, &layer_params, "N", "parameters per layer (default 4M)", 1, 1LL << 36 },
        { NULL, "--tokens", PW_OPT_INT, &tokens, "N", "tokens per replica (default 8192)", 1, 1LL << 40 },
        { NULL, "--straggler", PW_OPT_DOUBLE, &straggle, "F", "slow factor of the straggler (default 1.5)", 1, 100 },
    };
    pw_common_opts common;
    int nopts = 6 + pw_cluster_flag_opts(&links, opts + 6, false);   /* it has its own --per-node */
    pw_parse_or_exit(argc, argv, "a traced training step: all-reduce after, or overlapped with, the backward pass",
                     opts, nopts, &common);
    /* --tiny picks smaller defaults; flags given win */
    if (ranks < 0) ranks = common.tiny ? 4 : 8;
    if (per_node < 0) per_node = common.tiny ? 2 : 4;
    if (layers < 0) layers = common.tiny ? 3 : 4;
    if (common.tiny) slow_rank = 1;
    if (slow_rank >= ranks) slow_rank = ranks - 1;
    double *slow = malloc((size_t)ranks * sizeof *slow);
    for (int r = 0; r < ranks; r++) slow[r] = r == slow_rank ? straggle : 1.0;

    const char *scen[3] = { "no_overlap", "overlap", "straggler" };
    links.per_node = per_node;
    pw_cluster_config cfg = pw_cluster_config_for((int)ranks, &links);
    cfg.ranks_per_node = (int)per_node;
    cfg.trace = true;
    pw_cluster_check_or_exit(common.prog, &cfg);
    /* Opened before any rank runs: an unwritable path is refused (exit 2)
     * before the fibers start, as on every other bad input. */
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    step_job j = { (int)layers, (size_t)layer_params, (double)tokens, false };
    double compute = 6.0 * (double)layer_params * (double)tokens * (double)layers / (cfg.device_gflops * 1e9);
    bool multi = ranks > per_node;   /* the ring then runs at the inter-node link's pace */
    double a = multi ? cfg.inter_alpha : cfg.intra_alpha, b = 1 / ((multi ? cfg.inter_gbs : cfg.intra_gbs) * 1e9);
    double ring_all = coll_model_ring((int)ranks, (size_t)(layer_params * layers), 4, a, b);
    double ring_bucket = coll_model_ring((int)ranks, (size_t)layer_params, 4, a, b);

    /* run all three, keep their traces */
    double step[3], earliest_end[3];
    pw_trace_event *ev[3];
    size_t nev[3];
    for (int s = 0; s < 3; s++) {
        cfg.slow = s == 2 ? slow : NULL;
        j.overlap = s > 0;
        pw_cluster *c = pw_cluster_create(&cfg);
        if (pw_cluster_run(c, one_step, &j) != 0) { fprintf(stderr, "%s", pw_cluster_report(c)); return PW_EXIT_WRONG; }
        step[s] = pw_cluster_time(c);
        earliest_end[s] = INFINITY;
        for (int r = 0; r < ranks; r++) earliest_end[s] = fmin(earliest_end[s], pw_cluster_clock(c, r));
        const pw_trace_event *t = pw_cluster_trace(c, &nev[s]);
        ev[s] = malloc((nev[s] ? nev[s] : 1) * sizeof *t);
        memcpy(ev[s], t, nev[s] * sizeof *t);
        pw_cluster_destroy(c);
    }
    bool exact = (layer_params * layers) % ranks == 0;
    double want = compute + ring_all;
    if ((exact && fabs(step[0] - want) > 1e-9 * want) || step[1] > step[0] * (1 + 1e-12) || step[1] < compute) {
        fprintf(stderr, "%s: step times break the model: no_overlap %.9g s (want %.9g), overlap %.9g s, compute %.9g s\n",
                common.prog, step[0], want, step[1], compute);
        return PW_EXIT_WRONG;
    }
    printf("all variants match: no_overlap = compute + ring closed form; compute <= overlap <= no_overlap\n\n");

    printf("%lld replicas (%lld per node), %lld layers of %lld parameters, %lld tokens per replica\n",
           ranks, per_node, layers, layer_params, tokens);
    printf("compute (forward + backward) %.3f ms; one ring all-reduce of all gradients %.3f ms, of one bucket %.3f ms\n\n",
           compute * 1e3, ring_all * 1e3, ring_bucket * 1e3);
    printf("%-12s %10s %16s\n", "scenario", "step", "communication");
    for (int s = 0; s < 3; s++) {
        /* exposed: the part of the step that is not the (slowest rank's) compute */
        double exposed = step[s] - compute * (s == 2 ? straggle : 1.0);
        char note[128] = "";
        /* each note from this run's numbers: what hid, and who waited */
        if (s == 1 && exposed < step[0] - compute)
            snprintf(note, sizeof note, "  (%.3f ms of it hides behind the backward pass)", (step[0] - step[1]) * 1e3);
        if (s == 2 && earliest_end[2] >= compute * straggle)
            snprintf(note, sizeof note, "  (every rank ends after rank %lld's %.3f ms of compute, %.1fx slower)",
                     slow_rank, compute * straggle * 1e3, straggle);
        printf("%-12s %7.3f ms %10.3f ms exposed%s\n", scen[s], step[s] * 1e3, exposed * 1e3, note);
    }
    if (step[1] < step[0])
        printf("answer: overlap hides %.0f%% of the all-reduce time (%.3f of %.3f ms); %.3f ms stays exposed\n",
               100 * (step[0] - step[1]) / ring_all, (step[0] - step[1]) * 1e3, ring_all * 1e3, (step[1] - compute) * 1e3);
    else
        printf("answer: overlap hides nothing here: the step takes as long as without it\n");

    pw_csv_meta(csv, "ranks", "%lld", ranks);
    pw_csv_meta(csv, "slow_rank", "%lld", slow_rank);
    for (int s = 0; s < 3; s++) {
        for (size_t i = 0; i < nev[s]; i++) write_event(csv, &ev[s][i], scen[s]);
        pw_csv_value(csv, "step", -1, (int)ranks, scen[s], step[s], 0, 0);
        free(ev[s]);
    }
    free(slow);
    return pw_csv_close(csv);
}
