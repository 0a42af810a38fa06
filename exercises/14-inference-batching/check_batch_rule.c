/* exercises/14-inference-batching/check_batch_rule.c: the checker of exercise 14.1.
 *
 * Built with your exercises/14-inference-batching/batch_rule.c by
 * `make ex-14.1`, or with the solution by `make solution-14.1`. It runs the
 * server of kernels/server.c (real threads, real time; 2 workers, d = 384,
 * 2 layers, B = 32, budget 20 ms, queue 128) with your rule and, in the same
 * run, with the library's greedy and budget rules as the yardstick, at two
 * arrival rates:
 *   light     B / (10 budgets) = 160 requests/s: a full batch takes 200 ms
 *             to gather, ten budgets, on any machine. Your rule must
 *             (a) never hold a batch back past the budget: the batcher's own
 *                 timestamps (decision - max(oldest arrival, free worker)),
 *                 with SLACK for a late wake-up on a busy machine;
 *             (b) answer 99% of requests within budget + SLACK;
 *             (c) batch: a mean batch at least half the library budget
 *                 rule's (sending each request at once gives 1.0 here,
 *                 where waiting gives about 3).
 *   overload  3x the unbatched capacity (2 workers / t(1), t(1) measured
 *             here): without batches the workers cannot keep up. Your
 *             throughput must be at least 60% of the better of the
 *             library's two batching rules, measured in the same run (the
 *             best of two tries each: a busy machine slows one run, not the
 *             ratio of two).
 * Every run must also answer every request once or reject it (queue full),
 * keep the queue bound, and give every answer equal to the request run
 * alone; the server takes a batch itself if a rule holds it past 4 budgets
 * + 0.5 s, and that fails too.
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include "server.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>

#include "batch_rule.h"

#define BUDGET 0.020
#define B 32
#ifdef UNDER_SANITIZER
#define SLACK 0.150          /* ThreadSanitizer slows every lock by 5-20x */
#else
#define SLACK 0.030
#endif

static srv_model model;

static srv_result run(srv_decide_fn rule, double rate, int n, double service, uint64_t seed)
{
    srv_config c = { rate, n, 128, B, BUDGET, service, 2, rule, seed };
    srv_result r;
    if (srv_run(&model, &c, &r)) { fprintf(stderr, "checker: out of memory or threads\n"); exit(2); }
    srv_result_free(&r);
    return r;
}

/* The server's own properties: fail with a reason, or 0. */
static int broken(const char *what, const srv_result *r)
{
    if (r->answered + r->rejected != r->sent || r->lost) { pw_ex_fail("%s: %d sent but %d answered + %d rejected", what, r->sent, r->answered, r->rejected); return 1; }
    if (r->duplicates) { pw_ex_fail("%s: %d requests answered twice", what, r->duplicates); return 1; }
    if (r->wrong) { pw_ex_fail("%s: %d answers differ from the request run alone", what, r->wrong); return 1; }
    if (r->forced) {
        pw_ex_fail("%s: your rule kept %d batches waiting past 4 budgets + 0.5 s, and the server sent them itself: "
                   "does it ever send a batch that is not full?", what, r->forced);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    if (srv_model_init(&model, 384, 2, 14)) { fprintf(stderr, "checker: out of memory\n"); return 2; }
    /* t(1) and t(B): the median of 15 forwards each */
    float *X = pw_alloc_floats(B * 384), *Y = pw_alloc_floats(B * 384), *T = pw_alloc_floats(B * 384);
    pw_fill_random(X, B * 384, 1, -1, 1);
    double t[2][15];
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 15; i++) { double t0 = pw_now(); srv_forward(&model, k ? B : 1, X, Y, T); t[k][i] = pw_now() - t0; }
    double t1 = pw_median(t[0], 15), tB = pw_median(t[1], 15);
    pw_free(X); pw_free(Y); pw_free(T);
    printf("forward: %.0f us for 1 request, %.0f us for %d; budget %.0f ms, slack %.0f ms\n", t1 * 1e6, tB * 1e6, B, BUDGET * 1e3, SLACK * 1e3);

    double light = B / (10 * BUDGET);
    printf("  light load, %.0f requests/s          ", light);
    srv_result ref = run(srv_decide_budget, light, 120, tB, 1), you = run(batch_rule, light, 120, tB, 1);
    if (broken("light load", &ref)) return 2;
    if (you.max_hold > BUDGET + SLACK) {   /* before broken(): a rule that waits for full batches is also forced */
        pw_ex_fail("your rule held a batch %.1f ms (budget %.0f ms + %.0f ms slack): the oldest request's wait counts from its "
                   "arrival, and a batch that waits to be full waits %.0f ms here", you.max_hold * 1e3, BUDGET * 1e3, SLACK * 1e3, B / light * 1e3);
        return 1;
    }
    if (broken("light load", &you)) return 1;
    if (you.p99 > BUDGET + SLACK) {
        pw_ex_fail("99%% of your answers took up to %.1f ms, over the budget of %.0f ms (+ %.0f ms slack): leave room for the "
                   "forward pass itself (v->service)", you.p99 * 1e3, BUDGET * 1e3, SLACK * 1e3);
        return 1;
    }
    if (you.mean_batch < 0.5 * ref.mean_batch) {
        pw_ex_fail("your batches held %.1f requests on average where waiting within the budget gathers %.1f: at light load "
                   "a rule that sends at once wastes the batch", you.mean_batch, ref.mean_batch);
        return 1;
    }
    printf("ok (batch %.1f, library %.1f; held at most %.1f ms; p99 %.1f ms)\n", you.mean_batch, ref.mean_batch, you.max_hold * 1e3, you.p99 * 1e3);

    double heavy = 3 * 2 / t1;
    int n = (int)fmin(fmax(heavy * 0.15, 200), 6000);
    printf("  overload, %.0f requests/s, %d requests ", heavy, n);
    double best_ref = 0, best_you = 0;
    for (int k = 0; k < 2; k++) {
        srv_result g = run(srv_decide_greedy, heavy, n, tB, 2 + k), b = run(srv_decide_budget, heavy, n, tB, 2 + k);
        srv_result y = run(batch_rule, heavy, n, tB, 2 + k);
        if (broken("overload", &g) || broken("overload", &b)) return 2;
        if (broken("overload", &y)) return 1;
        if (y.max_queue > 128) { pw_ex_fail("the queue held %d, over its bound 128", y.max_queue); return 1; }
        best_ref = fmax(best_ref, fmax(g.throughput, b.throughput));
        best_you = fmax(best_you, y.throughput);
    }
    if (best_you < 0.6 * best_ref) {
        pw_ex_fail("you answered %.0f requests/s where the library's batching rules answered %.0f (%.0f%%, need 60%%): "
                   "under overload, send what is queued", best_you, best_ref, 100 * best_you / best_ref);
        return 1;
    }
    printf("ok (%.0f requests/s, %.0f%% of the library's best)\n", best_you, 100 * best_you / best_ref);
    srv_model_free(&model);
    return pw_ex_pass("your rule keeps the budget at light load, batches there, and keeps up under overload");
}
