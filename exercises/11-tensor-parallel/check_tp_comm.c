/* exercises/11-tensor-parallel/check_tp_comm.c: the checker of exercise 11.2.
 *
 * Built with your exercises/11-tensor-parallel/tp_comm.c by `make ex-11.2`,
 * or with the solution by `make solution-11.2`. For 33 cases (t = 1, 2, 3,
 * 4, 5, 6, 8, 16; n h from 240 to 189M floats; the default fast link, 450
 * GB/s and 1 us, and the slow one, 50 GB/s and 5 us, and a made-up one;
 * with and without sequence parallelism) it runs the block's messages on
 * the virtual cluster (tp_block_model of kernels/tensor_parallel.c: the very
 * messages the real block sends, phantom buffers; compute made negligible
 * by a device of 10^30 GFLOP/s) and compares
 *   1. tp_sent_bytes with the bytes each rank sent (the trace), to 1e-9;
 *   2. tp_comm_seconds with the modelled time, to 1e-9.
 * A wrong answer is explained from what it is off by (t times the bandwidth
 * term, the latency term missing, the re-gathers of sequence parallelism).
 * The last line is PASS or FAIL.
 */
#include "exercise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "collectives.h"
#include "tensor_parallel.h"
#include "tp_comm.h"

typedef struct { tp_shape sh; bool sp; } model_job;

static void rank_fn(pw_rank *r, void *arg)
{
    model_job *m = arg;
    pw_comm c = coll_comm_cluster(r);
    tp_block_model(&c, &m->sh, m->sp);
}

/* The simulation: seconds and bytes sent by rank 0 (all ranks alike). */
static void simulate(const tp_link *k, double *secs, double *bytes)
{
    pw_cluster_config cfg = pw_cluster_defaults(k->t);
    cfg.ranks_per_node = k->t;
    cfg.intra_alpha = k->alpha;
    cfg.intra_gbs = k->gbs;
    cfg.device_gflops = 1e30;
    cfg.trace = true;
    pw_cluster *c = pw_cluster_create(&cfg);
    model_job m = { { 1, (int)k->n, (int)k->h, k->t }, k->seqpar };
    if (pw_cluster_run(c, rank_fn, &m) != PW_CLUSTER_OK) {
        printf("checker: the simulation failed:\n%s", pw_cluster_report(c));
        exit(2);
    }
    *secs = pw_cluster_time(c);
    size_t nev;
    const pw_trace_event *ev = pw_cluster_trace(c, &nev);
    *bytes = 0;
    for (size_t i = 0; i < nev; i++)
        if (ev[i].rank == 0 && !strcmp(ev[i].kind, "send")) *bytes += ev[i].bytes;
    pw_cluster_destroy(c);
}

/* 1e-9 relative; plus 1e-18 s for the compute of a 10^30 GFLOP/s device (below 1e-27 s) */
static bool close_to(double got, double want) { return fabs(got - want) <= 1e-9 * fabs(want) + 1e-18; }

static void explain(const tp_link *k, double got, double want, double bytes)
{
    int t = k->t;
    double steps = (k->seqpar ? 10.0 : 8.0) * (t - 1), chunk = 4.0 * k->n * k->h / t, beta = 1 / (k->gbs * 1e9);
    double lat = steps * k->alpha, bw = steps * chunk * beta;
    if (t == 1) printf("  one rank has nobody to talk to: 0 s\n");
    else if (close_to(got, lat + t * bw))
        printf("  that is the latency right and t = %d times the bandwidth term: a ring step sends one chunk of\n"
               "  4 n h / t bytes, not the whole buffer\n", t);
    else if (close_to(got, bw))
        printf("  that is the bandwidth term alone: every one of the %.0f steps also pays alpha\n", steps);
    else if (close_to(got, lat))
        printf("  that is the latency term alone: each step also moves a chunk of %.0f bytes at %g GB/s\n", chunk, k->gbs);
    else if (k->seqpar && close_to(got, 0.8 * want))
        printf("  that is the cost without sequence parallelism's two extra all-gathers: the backward pass\n"
               "  gathers the layer norms' outputs again (each rank kept only its tokens' share)\n");
    else if (close_to(got, want / 2))
        printf("  half: the forward pass only? The backward has as many all-reduces (f and g swap roles)\n");
    else if (close_to(got, lat / 2 + bw))
        printf("  t-1 steps per all-reduce? A ring all-reduce is a reduce-scatter and an all-gather: 2(t-1) steps\n");
    else
        printf("  the simulation: %.0f ring steps of %.0f bytes (%.0f bytes in all), each alpha + bytes x beta\n", steps, chunk, bytes);
}

static void explain_bytes(const tp_link *k, double got, double want)
{
    double chunk = 4.0 * k->n * k->h / k->t;
    if (k->t > 1 && close_to(got, k->t * want))
        printf("  that is t = %d times the trace's bytes: a ring step sends one chunk of 4 n h / t bytes, not the\n"
               "  whole buffer\n", k->t);
    else if (k->seqpar && close_to(got, 0.8 * want))
        printf("  that is the bytes without sequence parallelism's two extra all-gathers: the backward pass\n"
               "  gathers the layer norms' outputs again (each rank kept only its tokens' share)\n");
    else if (close_to(got, want / 2))
        printf("  half: the forward pass only? The backward has as many all-reduces (f and g swap roles)\n");
    else
        printf("  the trace: %.0f ring steps of %.0f bytes\n", want / chunk, chunk);
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    static const int ts[] = { 1, 2, 3, 4, 5, 6, 8, 16 };
    static const double sizes[][2] = { { 10, 24 }, { 1920, 1024 }, { 15360, 12288 } };   /* n h divisible by every t */
    static const double links[][2] = { { 1e-6, 450 }, { 5e-6, 50 }, { 2.5e-6, 123.4 } };
    printf("exercise 11.2: tp_sent_bytes() and tp_comm_seconds() against the virtual cluster\n");
    int cases = 0;
    for (size_t si = 0; si < 3; si++)
        for (size_t ti = 0; ti < sizeof ts / sizeof ts[0]; ti++)
            for (int sp = 0; sp < 2; sp++) {
                size_t li = (si + ti + (size_t)sp) % 3;
                if ((si == 0 && ts[ti] > 6) || (sp && ts[ti] == 1) || (si == 2 && ti % 2)) continue;
                tp_link k = { sizes[si][0], sizes[si][1], ts[ti], links[li][0], links[li][1], sp == 1 };
                double secs, bytes;
                simulate(&k, &secs, &bytes);
                printf("  n %6.0f h %5.0f t %2d %-5s %7.1f GB/s: ", k.n, k.h, k.t, sp ? "TP+SP" : "TP", k.gbs);
                double gb = tp_sent_bytes(&k);
                if (!close_to(gb, bytes)) {
                    pw_ex_fail("t = %d%s: tp_sent_bytes says %.0f bytes, the trace %.0f", k.t, sp ? " with sequence parallelism" : "", gb, bytes);
                    explain_bytes(&k, gb, bytes);
                    return 1;
                }
                double gs = tp_comm_seconds(&k);
                if (!close_to(gs, secs)) {
                    pw_ex_fail("t = %d%s, %g GB/s, alpha %g us: tp_comm_seconds says %.6g us, the simulation %.6g us",
                               k.t, sp ? " with sequence parallelism" : "", k.gbs, k.alpha * 1e6, gs * 1e6, secs * 1e6);
                    explain(&k, gs, secs, bytes);
                    return 1;
                }
                printf("%12.0f bytes, %12.4f us ok\n", bytes, secs * 1e6);
                cases++;
            }
    return pw_ex_pass("%d cases: bytes and seconds equal the simulation's; 4 all-reduces (TP+SP: their halves\n"
                      "  and two re-gathers) of 2(t-1) ring steps, each alpha + (4 n h / t) beta", cases);
}
