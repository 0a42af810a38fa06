/* chapters/03-threads/pi.c: pi with pthreads, over a sweep of thread counts,
 * with speedup, efficiency, Karp-Flatt and the Amdahl fit.
 *
 * pi = integral from 0 to 1 of 4/(1+x^2) dx by the midpoint rule (kernels/
 * pi.h). Every thread sums one block of the steps into a private partial sum;
 * the main thread adds the T partial sums after the join. Nothing is shared
 * while the threads work, so this is as parallel as work gets: the speedup on
 * two cores should be close to 2, and the fitted serial fraction small (the
 * thread start and join, and whatever else the machine was doing).
 *
 * The answer checks itself: it must be within pi_tolerance(n) of pi (the
 * midpoint rule's h^2/12 plus a bound on the rounding of n additions), at
 * odd step counts and odd thread counts too, before anything is timed.
 *
 *   ./build/ch03/pi                  50M steps, threads 1, 2, ... cores, 2x cores
 *   ./build/ch03/pi -t 1,2,3,4,8 -s 100M
 *
 * Expect: speedup about 1.9-2.0 on two threads of a 2-core machine, no
 * better with 4 threads (they share the 2 cores: "oversubscribed").
 */
#include "check.h"
#include "options.h"
#include "overlap.h"
#include "pi.h"
#include "results.h"
#include "scaling.h"
#include "threads.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct { long long n; int threads; double pi; pw_overlap ov; } pi_ctx;
static void run_seq(void *p) { pi_ctx *c = p; c->pi = pi_seq(c->n); }
/* Every call also measures whether its threads ran at the same time. */
static void run_threads(void *p)
{
    pi_ctx *c = p;
    pw_overlap_mark m = pw_overlap_begin();
    c->pi = pi_pthreads(c->n, c->threads, THREADS_ANYWHERE, NULL);
    pw_overlap_end(&c->ov, m);
}

/* One answer against pi; 0 if within the tolerance. */
static int check_pi(const char *variant, long long n, int threads, double got)
{
    char what[96];
    snprintf(what, sizeof what, "%s n=%lld threads=%d", variant, n, threads);
    return pw_check_scalar(what, got, PI_EXACT, pi_tolerance(n), 0);
}

/* Every thread count asked for, and 1, 2, 3 and 7 (uneven blocks), on odd
 * step counts (1 step: most threads get nothing to do) and on n itself. */
static int verify(long long n, const pw_list *threads)
{
    static const long long odd_n[] = { 1, 2, 7, 1001, 100003 };
    static const int odd_t[] = { 1, 2, 3, 7 };
    int bad = 0;
    for (size_t i = 0; i < sizeof odd_n / sizeof odd_n[0]; i++) {
        bad |= check_pi("pi_seq", odd_n[i], 1, pi_seq(odd_n[i]));
        for (size_t k = 0; k < sizeof odd_t / sizeof odd_t[0]; k++)
            bad |= check_pi("pi_pthreads", odd_n[i], odd_t[k], pi_pthreads(odd_n[i], odd_t[k], THREADS_ANYWHERE, NULL));
        for (int k = 0; k < threads->n; k++) {
            int t = (int)threads->v[k];
            bad |= check_pi("pi_pthreads", odd_n[i], t, pi_pthreads(odd_n[i], t, THREADS_ANYWHERE, NULL));
        }
    }
    bad |= check_pi("pi_seq", n, 1, pi_seq(n));
    for (int k = 0; k < threads->n; k++) {
        int t = (int)threads->v[k];
        bad |= check_pi("pi_pthreads", n, t, pi_pthreads(n, t, THREADS_ANYWHERE, NULL));
    }
    return bad;
}

int main(int argc, char **argv)
{
    long long steps = 50000000;
    pw_list threads = { .n = 0 };
    pw_opt opts[] = {
        { "-s", "--steps", PW_OPT_INT, &steps, "N", "integration steps (default 50M: about 0.1 s on one core)", 1, 1LL << 40 },
        { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "thread counts (default 1, 2, ... cores, 2x cores; or THREADS=)", 1, PW_MAX_THREADS },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "pi by the midpoint rule with pthreads: speedup, efficiency, Amdahl fit",
                     opts, 2, &common);
    if (threads.n == 0) pw_default_threads(&threads, common.prog);
    if (common.tiny) steps = 200001;
    int cores = pw_cores();

    if (verify(steps, &threads)) {
        fprintf(stderr, "%s: a pi was out of tolerance; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    double seq_pi = pi_seq(steps);
    printf("all variants match the reference: every pi within pi_tolerance of pi (odd step and thread counts too)\n"
           "n = %lld steps: pi_seq = %.15f, error %.2g; allowed %.2g (h^2/12 = %.2g, rounding bound n*u*pi)\n\n",
           steps, seq_pi, fabs(seq_pi - PI_EXACT), pi_tolerance(steps),
           1.0 / (12.0 * (double)steps * (double)steps));

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_bench_config cfg = pw_bench_from_opts(&common);
    double flops = (double)PI_FLOPS_PER_STEP * (double)steps;

    /* The baseline and every thread count are sampled in turns
     * (pw_bench_sweep), not one after the other: this virtual machine's speed
     * drifts by about 10% over seconds (one thread took 60 ms in one run, 67 ms
     * in the next), and a drift between two points would land on one side of
     * the speedup. Point 0 is pi_seq; point k + 1 is threads.v[k]. */
    pi_ctx ctxs[PW_MAX_LIST + 1];
    void *ctxp[PW_MAX_LIST + 1];
    pw_work_fn fns[PW_MAX_LIST + 1];
    pw_bench_stats sts[PW_MAX_LIST + 1];
    ctxs[0] = (pi_ctx){ steps, 1, 0, { 0, 0, 0 } };
    fns[0] = run_seq;
    for (int k = 0; k < threads.n; k++) {
        ctxs[k + 1] = (pi_ctx){ steps, (int)threads.v[k], 0, { 0, 0, 0 } };
        fns[k + 1] = run_threads;
    }
    for (int i = 0; i <= threads.n; i++) ctxp[i] = &ctxs[i];
    pw_bench_sweep(&cfg, fns, ctxp, threads.n + 1, sts);
    for (int i = 0; i <= threads.n; i++) pw_sink += ctxs[i].pi;

    pw_bench_stats seq = sts[0];
    pw_csv_summary(csv, "pi_seq", steps, 1, "", &seq, flops, 0);
    printf("pi_seq (the sequential reference, the baseline): %.4g ms (IQR %.1f%%), %.2f GFLOP/s, %.2f ns per step\n\n",
           seq.median * 1e3, 100 * (seq.q3 - seq.q1) / seq.median, pw_gflops(flops, seq.median),
           seq.median * 1e9 / (double)steps);

    pw_scaling_point pts[PW_MAX_LIST];
    pw_overlap ovs[PW_MAX_LIST];
    for (int k = 0; k < threads.n; k++) {
        pts[k].threads = ctxs[k + 1].threads;
        pts[k].st = sts[k + 1];
        ovs[k] = ctxs[k + 1].ov;
    }
    pw_scaling_fit fit = pw_scaling_report_overlap(csv, "pi_pthreads", steps, "", seq.median, pts, threads.n, flops, 0,
                                                   cores, ovs);
    /* What this run showed, from its own numbers: the point at the cores
     * (or the most threads below them), and the points past them. */
    int at = -1, past = -1;
    for (int k = 0; k < threads.n; k++) {
        if (threads.v[k] > 1 && threads.v[k] <= cores && (at < 0 || threads.v[k] > threads.v[at])) at = k;
        if (threads.v[k] > cores && (past < 0 || fit.speedup[k] > fit.speedup[past])) past = k;
    }
    if (at >= 0) {
        bool sus = fit.overlap[at] < PW_OVERLAP_SUSPECT;
        printf("\n%lld threads: %.2fx the sequential speed (ideal %.2fx)%s\n", threads.v[at], fit.speedup[at],
               (double)threads.v[at], sus ? ", but their threads mostly took turns on one core: this says how busy "
               "the machine was, not what the threads can do" : "");
    }
    if (at >= 0 && past >= 0) {
        if (fit.speedup[past] <= fit.speedup[at] * 1.05)
            printf("%lld threads on %d cores: %.2fx, no better than %lld threads: past the cores, threads take turns "
                   "and bring no more speed.\n", threads.v[past], cores, fit.speedup[past], threads.v[at]);
        else
            printf("%lld threads on %d cores: %.2fx, more than %lld threads gave (%.2fx): more threads than cores "
                   "cannot add speed, so the %lld-thread point was held back (by the machine's load?)\n",
                   threads.v[past], cores, fit.speedup[past], threads.v[at], fit.speedup[at], threads.v[at]);
    }
    /* The answer to step 5's prediction: the speedups at the cores and past
     * them, as the table rounds them. */
    if (at < 0)
        printf("\nanswer: not shown on this run: %s\n", cores < 2 ? "this machine has one core, so no two threads can run at once"
               : "no thread count between 2 and the cores was run");
    else {
        if (fit.overlap[at] < PW_OVERLAP_SUSPECT)
            printf("\nanswer: not shown on this run: %lld threads ran %.2fx, but their threads mostly took turns on one core",
                   threads.v[at], fit.speedup[at]);
        else
            printf("\nanswer: %lld threads ran %.2fx the sequential speed", threads.v[at], fit.speedup[at]);
        if (past >= 0) printf("; %lld threads on %d cores %.2fx", threads.v[past], cores, fit.speedup[past]);
        printf("\n");
    }
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
