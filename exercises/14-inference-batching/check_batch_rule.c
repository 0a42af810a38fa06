/* exercises/14-inference-batching/check_batch_rule.c: the checker of exercise 14.1.
 *
 * Built with your exercises/14-inference-batching/batch_rule.c by
 * `make ex-14.1`, or with the solution by `make solution-14.1`. It does not
 * run the threaded server: it simulates it, in modelled time (no threads, no
 * clock), so the grade is the same on an idle laptop and on a machine
 * grading three students at once on two cores (the real-time version once
 * failed the correct answer at load average 12).
 *
 * The model, kernels/server.c's batcher event by event:
 *   - 2 workers, batches of up to B = 32, budget 20 ms, a queue of 128 (an
 *     arrival that finds it full is rejected, and counted);
 *   - Poisson arrivals from a fixed seed (srv_poisson_gap, the server's
 *     own generator), the same arrivals for your rule and the library's;
 *   - a batch of b takes t(b) = T1 + (TB - T1)(b - 1)/(B - 1), with T1 =
 *     150 us and TB = 600 us: fixed constants near a forward of d = 384,
 *     2 layers on the reference machine (137 us for 1 request, 599 us for
 *     32), so the numbers below are the same everywhere;
 *   - your rule is asked exactly as the server asks it: whenever a worker is
 *     free and a request waits, again on every arrival, and at the time it
 *     asked for (v->service = t(B)); if it keeps a batch waiting past the
 *     oldest request's arrival + 4 budgets + 0.5 s, the simulation sends the
 *     batch itself, as the server does, and that fails (so a rule that never
 *     sends fails instead of hanging).
 * It fails at once a rule that returns a count outside 0..min(queued, B),
 * or 0 (wait) with a wake-up time not after now (or none, or NaN): the real
 * server would poll such a rule every 0.1 ms; here it is a mistake to name.
 *
 * At two arrival rates:
 *   light     B / (10 budgets) = 160 requests/s, 2000 requests: a full
 *             batch takes 200 ms to gather, ten budgets. Your rule must
 *             (a) never hold a batch back past the budget (decision time -
 *                 max(oldest arrival, a worker free), as the server counts);
 *             (b) answer 99% of requests within the budget (no slack: modelled
 *                 time has no late wake-ups; 1 us for rounding only);
 *             (c) batch: a mean batch at least half the library budget
 *                 rule's (sending each request at once gives 1.0 here,
 *                 where waiting gives about 3.9).
 *   overload  3x the unbatched capacity, 2 workers / t(1) = 40000
 *             requests/s, 40000 requests (1 s, so the last batch's wait is
 *             2% of the run): without batches the workers cannot keep up.
 *             Your throughput (answered / time of the last answer) must be
 *             at least 60% of the better of the library's greedy and
 *             budget rules (srv_decide_greedy, srv_decide_budget).
 * The real server is not run here (chapter 14's programs run it).
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include "server.h"
#include "timing.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "batch_rule.h"

#define BUDGET 0.020
#define B 32
#define WORKERS 2
#define QUEUE_CAP 128
#define T1 150e-6          /* modelled forward of 1 request, s */
#define TB 600e-6          /* modelled forward of B requests, s */
#define ROUNDING 1e-6      /* s: float rounding of sums of times, nothing more */
#define CALLS_PER_REQUEST 50   /* a correct rule is asked about 3 times a request */

static double forward_time(int b) { return T1 + (TB - T1) * (b - 1) / (B - 1); }

typedef struct {
    int sent, answered, rejected, batches, forced;
    double mean_batch, max_hold, p99, throughput;
    int bad;               /* 1: the rule broke the contract, already reported */
} sim_result;

static void *checked_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) { fprintf(stderr, "checker: out of memory\n"); exit(2); }
    return p;
}

/* One simulated run of n requests at `rate` with `rule`; `what` names the
 * load in a failure message. */
static sim_result simulate(srv_decide_fn rule, double rate, int n, uint64_t seed, const char *what)
{
    sim_result r = { 0 };
    double *arrive = checked_alloc(sizeof(double) * (size_t)n), *done = checked_alloc(sizeof(double) * (size_t)n);
    double *lat = checked_alloc(sizeof(double) * (size_t)n);
    int *queue = checked_alloc(sizeof(int) * QUEUE_CAP);
    uint64_t rng = seed ^ 0xA5A5A5A5ull;
    double t = 0;
    for (int i = 0; i < n; i++) { t += srv_poisson_gap(&rng, rate); arrive[i] = t; done[i] = -1; }

    double free_at[WORKERS] = { 0 };    /* a worker is busy until free_at > now */
    int busy[WORKERS] = { 0 };
    int qhead = 0, qlen = 0, next = 0, dispatched = 0, nfree = WORKERS;
    double now = 0, wake = INFINITY, avail = 0, last_done = 0;
    long calls = 0, max_calls = (long)n * CALLS_PER_REQUEST + 1000;
    r.sent = n;

    for (;;) {
        /* The next event: an arrival, a worker finishing, or the wake-up asked for. */
        double te = next < n ? arrive[next] : INFINITY;
        for (int w = 0; w < WORKERS; w++)
            if (busy[w] && free_at[w] < te) te = free_at[w];
        if (nfree > 0 && qlen > 0 && wake < te) te = wake;
        if (te == INFINITY) break;      /* nothing arrives, nothing runs, nothing waits */
        now = te;
        for (int w = 0; w < WORKERS; w++)
            if (busy[w] && free_at[w] <= now) {
                if (nfree == 0) avail = now;   /* the batcher had no worker until now */
                busy[w] = 0;
                nfree++;
            }
        while (next < n && arrive[next] <= now) {
            if (qlen == QUEUE_CAP) r.rejected++;   /* back-pressure: say no now */
            else queue[(qhead + qlen++) % QUEUE_CAP] = next;
            next++;
        }
        /* Ask the rule while a worker is free and a request waits. */
        wake = INFINITY;
        while (nfree > 0 && qlen > 0) {
            double oldest = arrive[queue[qhead]];
            srv_batch_view v = { now, qlen, oldest, B, BUDGET, TB };
            double want = NAN;
            int most = qlen < B ? qlen : B;
            if (++calls > max_calls) {
                pw_ex_fail("%s: your rule was asked %ld times for %d requests: it keeps asking to be woken a moment later; "
                           "wait until the time the oldest request must leave", what, calls, n);
                r.bad = 1;
                goto out;
            }
            int k = rule(&v, &want);
            if (k < 0 || k > most) {
                pw_ex_fail("%s: your rule returned %d with %d queued (largest batch %d): return 0 to wait, or 1..%d",
                           what, k, qlen, B, most);
                r.bad = 1;
                goto out;
            }
            double limit = oldest + 4 * BUDGET + 0.5;
            if (k == 0) {
                if (!(want > now)) {
                    char when[64];
                    if (isnan(want)) snprintf(when, sizeof when, "no time (*wake not set, or NaN)");
                    else snprintf(when, sizeof when, "%.3f ms, a time already past", want * 1e3);
                    pw_ex_fail("%s: your rule said wait (0) at %.3f ms but asked to be woken at %s: set *wake to a time "
                               "after v->now, or send", what, now * 1e3, when);
                    r.bad = 1;
                    goto out;
                }
                if (now < limit) { wake = want < limit ? want : limit; break; }
                k = most;       /* held past 4 budgets + 0.5 s: the server sends it itself */
                r.forced++;
            }
            double hold = now - (oldest > avail ? oldest : avail);
            if (hold > r.max_hold) r.max_hold = hold;
            int w = 0;
            while (busy[w]) w++;
            busy[w] = 1;
            nfree--;
            free_at[w] = now + forward_time(k);
            for (int j = 0; j < k; j++) {
                done[queue[qhead]] = free_at[w];
                qhead = (qhead + 1) % QUEUE_CAP;
                qlen--;
            }
            if (free_at[w] > last_done) last_done = free_at[w];
            r.batches++;
            dispatched += k;
            if (nfree > 0) avail = now;   /* the batcher goes on with the next free worker at once */
        }
    }
    for (int i = 0; i < n; i++)
        if (done[i] >= 0) lat[r.answered++] = done[i] - arrive[i];
    r.mean_batch = r.batches ? (double)dispatched / r.batches : 0;
    r.p99 = r.answered ? pw_quantile(lat, r.answered, 0.99) : 0;
    r.throughput = last_done > 0 ? r.answered / last_done : 0;
out:
    free(arrive); free(done); free(lat); free(queue);
    return r;
}

/* A library rule that breaks the simulation is the checker's bug: exit 2. */
static sim_result library(srv_decide_fn rule, double rate, int n, uint64_t seed, const char *what)
{
    sim_result r = simulate(rule, rate, n, seed, what);
    if (r.bad || r.forced || r.answered + r.rejected != r.sent) {
        fprintf(stderr, "checker: a library rule failed its own simulation (%s)\n", what);
        exit(2);
    }
    return r;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    printf("simulated server: %d workers, batches up to %d, budget %.0f ms, queue %d; forward %.0f us for 1 request, "
           "%.0f us for %d (model constants)\n", WORKERS, B, BUDGET * 1e3, QUEUE_CAP, T1 * 1e6, TB * 1e6, B);

    double light = B / (10 * BUDGET);
    printf("  light load, %.0f requests/s, 2000 requests   ", light);
    fflush(stdout);
    sim_result ref = library(srv_decide_budget, light, 2000, 1, "light load");
    sim_result you = simulate(batch_rule, light, 2000, 1, "light load");
    if (you.bad) return 1;
    if (you.max_hold > BUDGET + ROUNDING) {   /* before forced: a rule that waits for full batches is also forced */
        pw_ex_fail("your rule held a batch %.1f ms (budget %.0f ms): the oldest request's wait counts from its "
                   "arrival, and a batch that waits to be full waits %.0f ms here", you.max_hold * 1e3, BUDGET * 1e3, B / light * 1e3);
        return 1;
    }
    if (you.forced) {
        pw_ex_fail("light load: your rule kept %d batches waiting past 4 budgets + 0.5 s, and the server sent them itself: "
                   "does it ever send a batch that is not full?", you.forced);
        return 1;
    }
    if (you.p99 > BUDGET + ROUNDING) {
        pw_ex_fail("99%% of your answers took up to %.2f ms, over the budget of %.0f ms: leave room for the "
                   "forward pass itself (v->service)", you.p99 * 1e3, BUDGET * 1e3);
        return 1;
    }
    if (you.mean_batch < 0.5 * ref.mean_batch) {
        pw_ex_fail("your batches held %.1f requests on average where waiting within the budget gathers %.1f: at light load "
                   "a rule that sends at once wastes the batch", you.mean_batch, ref.mean_batch);
        return 1;
    }
    printf("ok (batch %.2f, library %.2f; held at most %.2f ms; p99 %.2f ms)\n", you.mean_batch, ref.mean_batch,
           you.max_hold * 1e3, you.p99 * 1e3);

    double heavy = 3 * WORKERS / T1;
    int n = 40000;     /* 1 s: the last batch's wait (up to a budget) is 2%, not 13% of the run */
    printf("  overload, %.0f requests/s, %d requests  ", heavy, n);
    fflush(stdout);
    sim_result g = library(srv_decide_greedy, heavy, n, 2, "overload, greedy");
    sim_result b = library(srv_decide_budget, heavy, n, 2, "overload, budget");
    sim_result y = simulate(batch_rule, heavy, n, 2, "overload");
    if (y.bad) return 1;
    if (y.forced) {
        pw_ex_fail("overload: your rule kept %d batches waiting past 4 budgets + 0.5 s, and the server sent them itself: "
                   "does it ever send a batch that is not full?", y.forced);
        return 1;
    }
    double best = fmax(g.throughput, b.throughput);
    if (y.throughput < 0.6 * best) {
        pw_ex_fail("you answered %.0f requests/s where the library's batching rules answered %.0f (%.0f%%, need 60%%): "
                   "under overload, send what is queued", y.throughput, best, 100 * y.throughput / best);
        return 1;
    }
    printf("ok (%.0f requests/s, %.0f%% of the library's best; greedy %.0f, budget %.0f; %d rejected, library %d and %d)\n",
           y.throughput, 100 * y.throughput / best, g.throughput, b.throughput, y.rejected, g.rejected, b.rejected);
    return pw_ex_pass("your rule keeps the budget at light load, batches there, and keeps up under overload");
}
