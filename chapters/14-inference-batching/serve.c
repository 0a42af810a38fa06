/* chapters/14-inference-batching/serve.c: a real threaded inference server
 * (kernels/server.h), three batching rules, several arrival rates.
 *
 *   ./build/ch14/serve                      d = 512, 4 layers, B = 32, budget 20 ms
 *   ./build/ch14/serve --rate 3000 --budget 10
 *   ./build/ch14/serve --load 50,100,200,400,800
 *
 * 1. The GEMM rate per batch size: one forward of b requests through the
 *    model (4 layers of 512 x 512), timed for b = 1, 2, 4, .., B. Flops
 *    2bd^2 a layer; compulsory bytes 4d^2 a layer (the weights) + 8bd: the
 *    intensity grows almost as b/2 flop/byte while the weights dominate, so
 *    the rate rises with b until the GEMM stops being memory bound
 *    (chapter 06's roofline; the roof column is min(peak, intensity x
 *    bandwidth) from chapter 01's quick probe of one core). Per request, a
 *    batch of 32 costs a fraction of 32 single forwards: that is what
 *    batching sells.
 * 2. The server at arrival rates set as percentages of the unbatched
 *    capacity (workers / t(1), measured in step 1), each rate with the rules
 *    none (one request a batch), greedy (all that is queued, up to B) and
 *    budget (wait for a full batch, but no longer than the oldest request's
 *    slack: arrival + budget - t(B)). Every run is checked: every request
 *    answered or rejected (counted reason), none twice, the queue never
 *    above its bound, the batcher never holding a batch back longer than
 *    the budget (+ --slack for a late wake-up on a busy machine), and every
 *    answer equal to the same request run alone. A failed check: exit 1.
 * 3. For each rate the best rule for the budget (the highest throughput
 *    whose p99 latency is within the budget, with nothing rejected),
 *    computed from the runs; then the trade-off at one rate (--at).
 *
 * CSV: kind=summary rows "forward" (n = b, the timing spread, flops, bytes) and kind=quantity
 * rows (variant = policy, n = rate in requests/s, param = throughput, p50,
 * p99, rejected, mean_batch, load).
 */
#include "gemm.h"
#include "options.h"
#include "results.h"
#include "roofline.h"
#include "server.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Not given: outside every option's range, so no command line can say it. */
#define UNSET (-1e300)

typedef struct { const srv_model *m; int b; float *X, *Y, *T; } fwd_ctx;
static void run_forward(void *p) { fwd_ctx *c = p; srv_forward(c->m, c->b, c->X, c->Y, c->T); }

static void fail(const char *what, const char *why)
{
    fprintf(stderr, "serve: %s: %s\n", what, why);
    exit(PW_EXIT_WRONG);
}

int main(int argc, char **argv)
{
    long long d = 512, layers = 4, B = 32, workers = 2, cap = 128, seed = 14;
    double budget_ms = 20, duration = UNSET, rate = UNSET, slack_ms = 100, at = 200;
    static pw_list load = PW_LIST(25, 50, 100, 200, 400);
    pw_opt opts[] = {
        { "-d", "--width", PW_OPT_INT, &d, "D", "model width: a request is D floats (default 512; --tiny 256)", 1, 4096 },
        { "-L", "--layers", PW_OPT_INT, &layers, "L", "layers (default 4)", 1, 64 },
        { "-B", "--max-batch", PW_OPT_INT, &B, "B", "largest batch (default 32)", 1, 1024 },
        { "-w", "--workers", PW_OPT_INT, &workers, "W", "worker threads (default 2)", 1, 64 },
        { "-q", "--queue", PW_OPT_INT, &cap, "Q", "queue bound (default 128)", 1, 1 << 20 },
        { NULL, "--budget", PW_OPT_DOUBLE, &budget_ms, "MS", "latency budget, ms (default 20)", -1e9, 1e9 },
        { NULL, "--rate", PW_OPT_DOUBLE, &rate, "R", "one arrival rate, requests/s (default: the --load sweep)", -1e12, 1e12 },
        { NULL, "--load", PW_OPT_SIZES, &load, "P[,P...]", "rates as % of the unbatched capacity (default 25,50,100,200,400)", 1, 100000 },
        { NULL, "--at", PW_OPT_DOUBLE, &at, "P", "the load (%) of the closing trade-off table (default 200)", 1, 100000 },
        { NULL, "--duration", PW_OPT_DOUBLE, &duration, "S", "seconds of arrivals a run (default 0.4; --tiny 0.15)", -1e9, 60 },
        { NULL, "--slack", PW_OPT_DOUBLE, &slack_ms, "MS", "late wake-up allowed on a busy machine, ms (default 100)", 0, 10000 },
        { NULL, "--seed", PW_OPT_INT, &seed, "S", "arrivals and inputs (default 14)", 0, 1LL << 40 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "inference batching: throughput against p50/p99 latency, three batching rules",
                     opts, (int)(sizeof opts / sizeof opts[0]), &common);
    if (!(budget_ms > 0)) { fprintf(stderr, "serve: --budget must be > 0 ms (got %g)\n", budget_ms); return 2; }
    if (rate != UNSET && !(rate > 0)) { fprintf(stderr, "serve: --rate must be > 0 requests/s (got %g)\n", rate); return 2; }
    if (duration != UNSET && !(duration > 0)) { fprintf(stderr, "serve: --duration must be > 0 s (got %g)\n", duration); return 2; }
    if (duration == UNSET) duration = common.tiny ? 0.15 : 0.4;
    if (common.tiny && d == 512) d = 256;
    if (common.tiny && load.n == 5 && load.v[0] == 25) load = (pw_list)PW_LIST(50, 200);
    pw_require_memory("serve", "-d", d * d * layers, sizeof(float), 1);
    double budget = budget_ms * 1e-3;

    srv_model model;
    if (srv_model_init(&model, (int)d, (int)layers, (uint64_t)seed)) fail("model", "out of memory");
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "model", "d=%lld layers=%lld max_batch=%lld workers=%lld queue=%lld budget_ms=%g",
                d, layers, B, workers, cap, budget_ms);

    /* ---- 1. the GEMM rate per batch size ---- */
    printf("1. one forward of b requests (d = %lld, %lld layers, gemm %s, %s)\n", d, layers,
           gemm_rung_name(gemm_rung_find("4")), pw_isa_name(gemm_isa()));
    /* The roofs of one core (a worker runs each call on one): chapter 01's
     * quick probe, about a second; --tiny skips it (the tests' runs, under
     * ThreadSanitizer too, where it takes much longer and means nothing). */
    pw_roofs roofs = { 0 };
    bool have_roofs = !common.tiny;
    if (have_roofs) {
        pw_hw hw;
        pw_probe_measure(&hw, true);
        pw_roofs_from_probe(&hw, 1, &roofs);
        pw_roofline_csv_roofs(csv, &roofs);
    }
    printf("%6s %10s %9s %12s %14s %11s %8s\n", "b", "time us", "GFLOP/s", "flop/byte", "us a request", "roof GF/s", "limit");
    pw_bench_config cfg = pw_bench_from_opts(&common);
    if (common.tiny) cfg.min_time_s = 0.01;
    fwd_ctx fc = { &model, 1, pw_alloc_floats((size_t)B * d), pw_alloc_floats((size_t)B * d), pw_alloc_floats((size_t)B * d) };
    pw_fill_random(fc.X, (size_t)B * d, 1, -1, 1);
    double t1 = 0, tB = 0;
    for (int b = 1;; b = b * 2 > B ? (int)B : b * 2) {
        pw_bench_stats st;
        fc.b = b;
        pw_bench(&cfg, run_forward, &fc, &st);
        double fl = srv_forward_flops(&model, b), by = srv_forward_bytes(&model, b);
        printf("%6d %10.1f %9.2f %12.2f %14.2f", b, st.median * 1e6, pw_gflops(fl, st.median), fl / by, st.median * 1e6 / b);
        if (have_roofs) printf(" %11.1f %8s\n", pw_roof_bound(&roofs, fl / by), pw_roof_limit(&roofs, fl / by));
        else printf(" %11s %8s\n", "-", "-");
        pw_csv_summary(csv, "forward", b, 1, "gemm_simd", &st, fl, by);
        if (b == 1) t1 = st.median;
        if (b == B) { tB = st.median; break; }
    }
    if (have_roofs)
        printf("roofs of one core (probe): %.1f GFLOP/s, %.1f GB/s (triad), ridge %.1f flop/byte; the bytes counted are the\n"
               "  compulsory ones (weights once, the batch in and out): weights that stay in cache can beat the DRAM roof\n",
               roofs.peak_gflops, roofs.dram_gbs, pw_roof_ridge(&roofs));
    else printf("roofs: not measured in a --tiny run (chapter 01's probe)\n");
    gemm_release_buffers();
    double cap1 = (double)workers / t1, capB = (double)workers * (double)B / tB;
    printf("per request a batch of %lld costs %.2fx a single forward: capacity %.0f requests/s unbatched, %.0f in full batches (%lld workers)\n",
           B, tB / B / t1, cap1, capB, workers);

    /* ---- 2. the sweep ---- */
    int nrates = rate > 0 ? 1 : load.n, at_i = -1;
    printf("\n2. the server, %.2f s of Poisson arrivals a run, budget %.1f ms, queue bound %lld\n", duration, budget_ms, cap);
    printf("%6s %8s %-7s %6s %6s %6s %6s %10s %8s %8s %8s\n", "load%", "rate/s", "policy", "sent", "answer", "reject",
           "batch", "req/s", "p50 ms", "p99 ms", "hold ms");
    typedef struct { double thr, p50, p99; int rejected; double batch; } point;
    point *pts = calloc((size_t)nrates * SRV_POLICIES, sizeof(point));
    double *rates = calloc((size_t)nrates, sizeof(double));
    int total_runs = 0;
    for (int i = 0; i < nrates; i++) {
        double pct = rate > 0 ? 100 * rate / cap1 : (double)load.v[i];
        rates[i] = rate > 0 ? rate : cap1 * pct / 100;
        if (at_i < 0 && fabs(pct - at) < 1e-9) at_i = i;
        for (int p = 0; p < SRV_POLICIES; p++) {
            int n = (int)fmin(fmax(rates[i] * duration, 20), 50000);
            srv_config c = { rates[i], n, (int)cap, (int)B, budget, tB, (int)workers, srv_policy_fn(p), (uint64_t)seed + (uint64_t)i };
            srv_result r;
            if (srv_run(&model, &c, &r)) fail("server", "out of memory or threads");
            char why[160] = "";
            if (r.answered + r.rejected != r.sent || r.lost)
                snprintf(why, sizeof why, "%d sent, %d answered + %d rejected, %d lost", r.sent, r.answered, r.rejected, r.lost);
            else if (r.duplicates) snprintf(why, sizeof why, "%d requests answered twice", r.duplicates);
            else if (r.max_queue > cap) snprintf(why, sizeof why, "queue reached %d, bound %lld", r.max_queue, cap);
            else if (r.wrong) snprintf(why, sizeof why, "%d answers differ from the request run alone (max |err| %g)", r.wrong, (double)r.max_err);
            else if (r.forced) snprintf(why, sizeof why, "the rule never let %d batches go", r.forced);
            else if (r.max_hold > budget + slack_ms * 1e-3)
                snprintf(why, sizeof why, "the batcher held a batch %.1f ms, budget %.1f + slack %.0f ms", r.max_hold * 1e3, budget_ms, slack_ms);
            if (why[0]) { char what[64]; snprintf(what, sizeof what, "%s at %.0f requests/s", srv_policy_name(p), rates[i]); fail(what, why); }
            printf("%6.0f %8.0f %-7s %6d %6d %6d %6.1f %10.0f %8.2f %8.2f %8.2f\n", pct, rates[i], srv_policy_name(p), r.sent,
                   r.answered, r.rejected, r.mean_batch, r.throughput, r.p50 * 1e3, r.p99 * 1e3, r.max_hold * 1e3);
            pts[i * SRV_POLICIES + p] = (point){ r.throughput, r.p50, r.p99, r.rejected, r.mean_batch };
            const char *name = srv_policy_name(p);
            long long nr = (long long)llround(rates[i]);
            pw_csv_quantity(csv, name, nr, (int)workers, "load", pct);
            pw_csv_quantity(csv, name, nr, (int)workers, "throughput", r.throughput);
            pw_csv_quantity(csv, name, nr, (int)workers, "p50", r.p50);
            pw_csv_quantity(csv, name, nr, (int)workers, "p99", r.p99);
            pw_csv_quantity(csv, name, nr, (int)workers, "rejected", r.rejected);
            pw_csv_quantity(csv, name, nr, (int)workers, "mean_batch", r.mean_batch);
            total_runs++;
            srv_result_free(&r);
        }
    }
    printf("all runs check: %d runs, every request answered once or rejected (queue full), queue within %lld, "
           "no batch held past the budget, every answer equal to the request alone\n", total_runs, cap);

    /* ---- 3. the best rule for the budget, at each rate ---- */
    if (at_i < 0) at_i = nrates - 1 < 3 ? nrates - 1 : 3;
    int best_at = -1;   /* the best rule at the trade-off rate: the answer line's */
    printf("\n3. the best rule for a %.1f ms budget (p99 within it, nothing rejected, then the most requests/s)\n", budget_ms);
    for (int i = 0; i < nrates; i++) {
        int best = -1;
        for (int p = 0; p < SRV_POLICIES; p++) {
            point *q = &pts[i * SRV_POLICIES + p];
            if (q->p99 > budget || q->rejected) continue;
            if (best < 0 || q->thr > pts[i * SRV_POLICIES + best].thr * 1.02
                || (q->thr > pts[i * SRV_POLICIES + best].thr * 0.98 && q->p99 < pts[i * SRV_POLICIES + best].p99)) best = p;
        }
        if (best < 0) printf("  at %8.0f requests/s: no rule meets the budget (all reject or p99 > %.1f ms)\n", rates[i], budget_ms);
        else printf("  at %8.0f requests/s: %-6s (%.0f requests/s, p99 %.2f ms, mean batch %.1f)\n", rates[i], srv_policy_name(best),
                    pts[i * SRV_POLICIES + best].thr, pts[i * SRV_POLICIES + best].p99 * 1e3, pts[i * SRV_POLICIES + best].batch);
        if (best >= 0) pw_csv_quantity(csv, srv_policy_name(best), (long long)llround(rates[i]), (int)workers, "best", 1);
        if (i == at_i) best_at = best;
    }
    printf("\nthe trade-off at %.0f requests/s (%.0f%% of the unbatched capacity), budget %.1f ms:\n", rates[at_i], 100 * rates[at_i] / cap1, budget_ms);
    printf("  %-7s %10s %8s %8s %8s %8s\n", "policy", "req/s", "p50 ms", "p99 ms", "reject", "batch");
    for (int p = 0; p < SRV_POLICIES; p++) {
        point *q = &pts[at_i * SRV_POLICIES + p];
        printf("  %-7s %10.0f %8.2f %8.2f %8d %8.1f\n", srv_policy_name(p), q->thr, q->p50 * 1e3, q->p99 * 1e3, q->rejected, q->batch);
    }
    /* The answer to the question asked before the run: the batch's cost in
     * single forwards (step 1's medians), and the rule step 3 chose at the
     * trade-off rate. */
    printf("\nanswer: %lld requests at once took %.1fx the time of one (%.0f against %.0f us), not %lldx;\n", B, tB / t1,
           tB * 1e6, t1 * 1e6, B);
    if (best_at >= 0)
        printf("  at %.0f%% of the unbatched capacity the rule that kept p99 within %.1f ms with nothing rejected, and served most: %s\n",
               100 * rates[at_i] / cap1, budget_ms, srv_policy_name(best_at));
    else
        printf("  at %.0f%% of the unbatched capacity no rule kept p99 within %.1f ms with nothing rejected on this run\n",
               100 * rates[at_i] / cap1, budget_ms);
    pw_free(fc.X); pw_free(fc.Y); pw_free(fc.T);
    free(pts); free(rates);
    srv_model_free(&model);
    return pw_csv_close(csv);
}
