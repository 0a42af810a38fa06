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
 * Four runs, on two machines (the small one but where said):
 *   light     B / (10 budgets) = 160 requests/s, 2000 requests: a full
 *             batch takes 200 ms to gather, ten budgets. Your rule must
 *             (a) never hold a batch back past the budget (decision time -
 *                 max(oldest arrival, a worker free), as the server counts);
 *             (b) answer every batch within the budget of max(its oldest
 *                 arrival, a worker free): hold + t(b) <= budget, exact at any
 *                 load (1 us for rounding); and 99% of requests within the
 *                 budget (no slack: modelled time has no late wake-ups);
 *             (c) batch: a mean batch at least half the library budget
 *                 rule's (sending each request at once gives 1.0 here,
 *                 where waiting gives about 3.9).
 *   a large model  forward 12 ms for 1 request, 16 ms for 32, same 20 ms
 *             budget, 10 requests/s, 2000 requests: (b)'s hold + t(b) <=
 *             budget again. The forward is over half the budget, so a rule
 *             that holds a batch budget / 2 (or any longer than the slack,
 *             budget - service) answers late here.
 *   medium    B / (budget / 2) = 3200 requests/s, 2000 requests: a full
 *             batch gathers in 10 ms, well within the 19.4 ms slack, so the
 *             rule asked for sends every batch full but the last (library
 *             31.7); the mean batch must be at least 0.9 of the library's
 *             (a rule that sends at half a batch gives 16.0).
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

/* The machine the simulation models: the budget and the forward of 1 and of
 * B requests (t(b) linear between them). */
typedef struct {
    const char *name;
    double budget, t1, tb;
} machine;

/* the reference machine's forward of d = 384, 2 layers (see the top) */
static const machine SMALL = { "a small model", BUDGET, T1, TB };
/* A large model: a forward of 12 ms for 1 request, 16 ms for 32, in the same
 * 20 ms budget (the slack, budget - service, is 4 ms). The forward is more
 * than half the budget, so a rule that holds a batch for budget / 2 answers
 * late whatever the load; one that leaves by arrival + budget - service
 * answers within budget - service + t(b) <= budget. */
static const machine LARGE = { "a large model", BUDGET, 12e-3, 16e-3 };

static double forward_time(const machine *mc, int b) { return mc->t1 + (mc->tb - mc->t1) * (b - 1) / (B - 1); }

typedef struct {
    int sent, answered, rejected, batches, forced;
    double mean_batch, max_hold, p99, throughput;
    /* the latest answer the rule is answerable for: a batch's answer time
     * minus max(its oldest arrival, the time a worker was free), its hold
     * plus its forward; with the batch's size and hold */
    double max_answer, answer_hold;
    int answer_k;
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
static sim_result simulate(const machine *mc, srv_decide_fn rule, double rate, int n, uint64_t seed, const char *what)
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
            srv_batch_view v = { now, qlen, oldest, B, mc->budget, mc->tb };
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
            double limit = oldest + 4 * mc->budget + 0.5;
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
            free_at[w] = now + forward_time(mc, k);
            if (hold + forward_time(mc, k) > r.max_answer) {
                r.max_answer = hold + forward_time(mc, k);
                r.answer_hold = hold;
                r.answer_k = k;
            }
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
static sim_result library(const machine *mc, srv_decide_fn rule, double rate, int n, uint64_t seed, const char *what)
{
    sim_result r = simulate(mc, rule, rate, n, seed, what);
    if (r.bad || r.forced || r.answered + r.rejected != r.sent) {
        fprintf(stderr, "checker: a library rule failed its own simulation (%s)\n", what);
        exit(2);
    }
    return r;
}

/* What the rule answers for: no batch answered more than the budget after
 * max(its oldest arrival, a worker free), i.e. hold + t(b) <= budget. Time
 * a request spends queued while both workers are busy is not the rule's,
 * so this holds exactly (1 us for rounding) at any load. */
static int check_answer(const machine *mc, const sim_result *r, const char *what)
{
    if (r->max_answer <= mc->budget + ROUNDING) return 0;
    pw_ex_fail("%s: a batch of %d was answered %.2f ms after its oldest request arrived (or a worker came free, if later: held %.2f ms, then a forward of "
               "%.2f ms), over the budget of %.0f ms: leave by the oldest arrival + budget - service (v->service = %.2f ms), "
               "so that the forward pass still ends in time",
               what, r->answer_k, r->max_answer * 1e3, r->answer_hold * 1e3, (r->max_answer - r->answer_hold) * 1e3,
               mc->budget * 1e3, mc->tb * 1e3);
    return 1;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    printf("simulated server: %d workers, batches up to %d, budget %.0f ms, queue %d; forward %.0f us for 1 request, "
           "%.0f us for %d (model constants)\n", WORKERS, B, BUDGET * 1e3, QUEUE_CAP, T1 * 1e6, TB * 1e6, B);

    double light = B / (10 * BUDGET);
    printf("  light load, %.0f requests/s, 2000 requests   ", light);
    fflush(stdout);
    sim_result ref = library(&SMALL, srv_decide_budget, light, 2000, 1, "light load");
    sim_result you = simulate(&SMALL, batch_rule, light, 2000, 1, "light load");
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
    if (check_answer(&SMALL, &you, "light load")) return 1;
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

    /* A large model (LARGE, above) at 10 requests/s: the workers are busy 6%
     * of the time, so nearly every batch starts with a free worker and its
     * oldest request's whole slack (4 ms) ahead. Only check_answer is asked:
     * p99 is not, since a request that finds both workers busy (a few in
     * 2000 here) waits up to 16 ms for one, whatever the rule. */
    double slow = 10;
    printf("  a large model (forward %.0f ms for 1, %.0f ms for %d), %.0f requests/s, 2000 requests   ", LARGE.t1 * 1e3,
           LARGE.tb * 1e3, B, slow);
    fflush(stdout);
    sim_result lref = library(&LARGE, srv_decide_budget, slow, 2000, 3, "a large model, light load");
    sim_result lyou = simulate(&LARGE, batch_rule, slow, 2000, 3, "a large model, light load");
    if (lyou.bad) return 1;
    if (check_answer(&LARGE, &lyou, "a large model, light load")) return 1;
    if (lyou.forced) {
        pw_ex_fail("a large model, light load: your rule kept %d batches waiting past 4 budgets + 0.5 s, and the server sent "
                   "them itself: does it ever send a batch that is not full?", lyou.forced);
        return 1;
    }
    printf("ok (answered at most %.2f ms after a free worker, library %.2f ms)\n", lyou.max_answer * 1e3, lref.max_answer * 1e3);

    /* Medium load, the small model: B per half budget, 3200 requests/s. A
     * full batch gathers in 10 ms on average, and the oldest request may wait
     * budget - service = 19.4 ms, when 62 arrive on average: fewer than 32
     * come in that time with probability P(Poisson(62.1) < 32) < 1e-4. So
     * the rule asked for (a full batch at once, else wait out the slack)
     * sends every batch full but the last: the library's mean is n /
     * ceil(n / B) = 31.7. A rule that sends at half a batch gets 16. The
     * bound, 0.9 of the library's mean, lies between: it allows about a
     * tenth of the batches to leave half full (at the deadline, say), not
     * all of them. Workers are free 94% of the time here: throughput does
     * not show it, the batch size does (each forward serves half as many). */
    double medium = B / (BUDGET / 2);
    printf("  medium load, %.0f requests/s, 2000 requests  ", medium);
    fflush(stdout);
    sim_result mref = library(&SMALL, srv_decide_budget, medium, 2000, 4, "medium load");
    sim_result myou = simulate(&SMALL, batch_rule, medium, 2000, 4, "medium load");
    if (myou.bad) return 1;
    if (check_answer(&SMALL, &myou, "medium load")) return 1;
    if (myou.forced) {
        pw_ex_fail("medium load: your rule kept %d batches waiting past 4 budgets + 0.5 s, and the server sent them itself",
                   myou.forced);
        return 1;
    }
    if (myou.mean_batch < 0.9 * mref.mean_batch) {
        pw_ex_fail("medium load: your batches held %.1f requests on average where the library's budget rule sends %.1f "
                   "(need 90%%): at %.0f requests/s a full batch of %d gathers in %.0f ms, within the %.1f ms the oldest "
                   "request can wait; send a batch before it is full only when the oldest request's slack runs out",
                   myou.mean_batch, mref.mean_batch, medium, B, B / medium * 1e3, (BUDGET - TB) * 1e3);
        return 1;
    }
    printf("ok (batch %.2f, library %.2f)\n", myou.mean_batch, mref.mean_batch);

    double heavy = 3 * WORKERS / T1;
    int n = 40000;     /* 1 s: the last batch's wait (up to a budget) is 2%, not 13% of the run */
    printf("  overload, %.0f requests/s, %d requests  ", heavy, n);
    fflush(stdout);
    sim_result g = library(&SMALL, srv_decide_greedy, heavy, n, 2, "overload, greedy");
    sim_result b = library(&SMALL, srv_decide_budget, heavy, n, 2, "overload, budget");
    sim_result y = simulate(&SMALL, batch_rule, heavy, n, 2, "overload");
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
    return pw_ex_pass("your rule keeps the budget at light load (small and large model), batches there, sends full batches "
                      "at medium load, and keeps up under overload");
}
