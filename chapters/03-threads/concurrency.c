/* chapters/03-threads/concurrency.c: concurrency is not parallelism, measured.
 *
 * The same compute-bound work (pi by the midpoint rule, kernels/pi.h) is cut
 * into T blocks run by T threads, placed two ways:
 *   one_core  every thread pinned to the same CPU. The threads are concurrent
 *             (all of them are under way at once, the scheduler switching
 *             between them every few milliseconds) but never parallel: one
 *             core does all the work, so T threads take as long as one.
 *   spread    thread t pinned to CPU t mod cores: the threads really run at
 *             the same time, and the time drops with the cores.
 * The one_core run also shows what interleaving looks like: all T threads
 * finish near the end of the run, not one after another.
 *
 * Pinning uses sched_setaffinity, which is Linux only; elsewhere the program
 * says it cannot pin and runs only the spread half (unpinned).
 *
 *   ./build/ch03/concurrency              20M steps, threads 1, 2, ... cores, 2x cores
 *   ./build/ch03/concurrency -t 1,2,4,8
 *
 * Expect on 2 cores: one_core stays at speedup 1.0 whatever T; spread gives
 * about 1.9 at T = 2.
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

typedef struct { long long n; int threads; threads_placement where; double pi; pw_overlap ov; } conc_ctx;
static void run_seq(void *p) { conc_ctx *c = p; c->pi = pi_seq(c->n); }
/* Each call also measures how many of its threads ran at once. */
static void run_placed(void *p)
{
    conc_ctx *c = p;
    pw_overlap_mark m = pw_overlap_begin();
    c->pi = pi_pthreads(c->n, c->threads, c->where, NULL);
    pw_overlap_end(&c->ov, m);
}

static const struct {
    const char *name;
    threads_placement where;
    const char *what;
} placements[] = {
    { "one_core", THREADS_ONE_CORE, "all threads pinned to one CPU: concurrent, not parallel" },
    { "spread",   THREADS_SPREAD,   "thread t pinned to CPU t mod cores: parallel" },
};

/* Each placement and thread count on an odd step count, against pi. */
static int verify(long long n, const pw_list *threads)
{
    int bad = 0;
    char what[96];
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < threads->n; k++) {
            int t = (int)threads->v[k];
            long long sizes[2] = { 1001, n };
            for (int s = 0; s < 2; s++) {
                snprintf(what, sizeof what, "%s n=%lld threads=%d", placements[p].name, sizes[s], t);
                bad |= pw_check_scalar(what, pi_pthreads(sizes[s], t, placements[p].where, NULL), PI_EXACT,
                                       pi_tolerance(sizes[s]), 0);
            }
        }
    return bad;
}

/* One run with the most threads, to see when each thread finished. */
static void show_finish_times(const char *name, threads_placement where, long long n, int T, double alone_s)
{
    double finish[PW_MAX_THREADS];
    pw_sink += pi_pthreads(n, T, where, finish);
    double first = finish[0], last = finish[0];
    for (int t = 1; t < T; t++) {
        if (finish[t] < first) first = finish[t];
        if (finish[t] > last) last = finish[t];
    }
    printf("%s, %d threads: the first thread finished after %.1f ms, the last after %.1f ms "
           "(one block alone takes about %.1f ms)\n", name, T, first * 1e3, last * 1e3, alone_s / T * 1e3);
}

int main(int argc, char **argv)
{
    long long steps = 20000000;
    pw_list threads = { .n = 0 };
    pw_opt opts[] = {
        { "-s", "--steps", PW_OPT_INT, &steps, "N", "integration steps (default 20M: about 20 ms on one core)", 1, 1LL << 40 },
        { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "thread counts (default 1, 2, ... cores, 2x cores; or THREADS=)", 1, PW_MAX_THREADS },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "the same work in T threads pinned to one core vs spread over the cores",
                     opts, 2, &common);
    if (threads.n == 0) pw_default_threads(&threads, common.prog);
    if (common.tiny) steps = 200001;
    int cores = pw_cores();
    bool pin = threads_can_pin();

    if (verify(steps, &threads)) {
        fprintf(stderr, "%s: a pi was out of tolerance; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the reference: pi within pi_tolerance for every placement and thread count\n");
    if (!pin)
        printf("this system cannot pin a thread to a core (no sched_setaffinity): the one_core half is "
               "skipped, and spread runs unpinned\n");
    printf("%d CPU%s on this machine", cores, cores == 1 ? "" : "s");
    if (pw_cpus_allowed() < cores) printf(", of which this process may use %d (taskset, or a container)", pw_cpus_allowed());
    printf("\n\n");

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_bench_config cfg = pw_bench_from_opts(&common);
    double flops = (double)PI_FLOPS_PER_STEP * (double)steps;

    /* Every point (the baseline, then each placement at each thread count) is
     * sampled in turns (pw_bench_sweep), not one after the other: this virtual
     * machine's speed drifts by about 10% over seconds (one thread took 60 ms
     * in one run, 67 ms in the next), and a drift between two points would
     * land on one side of a speedup. Point 0 is pi_seq; placement p at
     * threads.v[k] is point 1 + (p - first) * threads.n + k. */
    int first = pin ? 0 : 1, nplaced = 2 - first, count = 1 + nplaced * threads.n;
    static conc_ctx ctxs[1 + 2 * PW_MAX_LIST];   /* static: up to 129 points; a stats is 8 kB */
    static void *ctxp[1 + 2 * PW_MAX_LIST];
    static pw_work_fn fns[1 + 2 * PW_MAX_LIST];
    static pw_bench_stats sts[1 + 2 * PW_MAX_LIST];
    ctxs[0] = (conc_ctx){ steps, 1, THREADS_ANYWHERE, 0, { 0, 0, 0 } };
    fns[0] = run_seq;
    for (int p = first; p < 2; p++)
        for (int k = 0; k < threads.n; k++) {
            int i = 1 + (p - first) * threads.n + k;
            ctxs[i] = (conc_ctx){ steps, (int)threads.v[k], placements[p].where, 0, { 0, 0, 0 } };
            fns[i] = run_placed;
        }
    for (int i = 0; i < count; i++) ctxp[i] = &ctxs[i];
    pw_bench_sweep(&cfg, fns, ctxp, count, sts);
    for (int i = 0; i < count; i++) pw_sink += ctxs[i].pi;

    pw_bench_stats seq = sts[0];
    pw_csv_summary(csv, "pi_seq", steps, 1, "", &seq, flops, 0);
    printf("the work: pi with %lld steps, %.4g ms on one thread (pi_seq, the baseline)\n\n", steps, seq.median * 1e3);

    int most = 1, at = -1;   /* at: the most threads that fit on the cores, past 1 */
    for (int k = 0; k < threads.n; k++) {
        if (threads.v[k] > most) most = (int)threads.v[k];
        if (threads.v[k] > 1 && threads.v[k] <= cores && (at < 0 || threads.v[k] > threads.v[at])) at = k;
    }
    double speedup_at[2] = { NAN, NAN }, busy_at[2] = { NAN, NAN };
    for (int p = first; p < 2; p++) {
        pw_scaling_point pts[PW_MAX_LIST];
        pw_overlap ovs[PW_MAX_LIST];
        printf("%s: %s\n", placements[p].name, placements[p].what);
        for (int k = 0; k < threads.n; k++) {
            pts[k].threads = (int)threads.v[k];
            pts[k].st = sts[1 + (p - first) * threads.n + k];
            ovs[k] = ctxs[1 + (p - first) * threads.n + k].ov;
        }
        /* one_core is pinned to one CPU on purpose: that its threads never run
         * together is the experiment, not a fault, so it gets no suspect
         * verdict; spread's threads must run together, and are checked. */
        bool judged = placements[p].where != THREADS_ONE_CORE;
        /* Pinned to one CPU, one_core has one core to scale on: its Karp-Flatt
         * and Amdahl fit are n/a, not a "ceiling" fitted to noise. */
        int usable = pin && !judged ? 1 : cores;
        pw_scaling_fit fit = pw_scaling_report_overlap(csv, placements[p].name, steps, pin ? "pinned" : "unpinned",
                                                       seq.median, pts, threads.n, flops, 0, usable, judged ? ovs : NULL);
        if (at >= 0) {
            speedup_at[p] = fit.speedup[at];
            busy_at[p] = pw_overlap_concurrency(&ovs[at]);
            printf("%s, %lld threads: %.2f of them running at once on average (CPU time / wall time)\n",
                   placements[p].name, threads.v[at], busy_at[p]);
        }
        show_finish_times(placements[p].name, placements[p].where, steps, most, seq.median);
        printf("\n");
    }
    /* The conclusion, from this run's two placements at the same thread count. */
    if (at >= 0 && pin) {
        bool took_turns = busy_at[0] < 1.25, parallel = busy_at[1] >= 1 + PW_OVERLAP_SUSPECT * (fmin(threads.v[at], cores) - 1);
        printf("at %lld threads: one_core %.2fx with %.2f threads running at once, spread %.2fx with %.2f.\n",
               threads.v[at], speedup_at[0], busy_at[0], speedup_at[1], busy_at[1]);
        if (took_turns && parallel && speedup_at[1] > 1.3 * speedup_at[0])
            printf("one_core's threads took turns (concurrency) and took as long as one thread; spread's ran at "
                   "the same time (parallelism) and took less: the lesson, measured.\n");
        else if (!parallel)
            printf("spread's threads got too little CPU to run side by side either, so this run cannot show the "
                   "difference between concurrency and parallelism: rerun on an idle machine.\n");
        else
            printf("spread's threads ran at the same time, yet were not clearly faster than one_core's: this run "
                   "does not show the expected gap (the work may be too small for the thread start-up).\n");
    } else if (at < 0) {
        printf("no thread count between 2 and the %d cores was run: nothing here compares the placements.\n", cores);
    }
    /* The answer to step 1's prediction: both placements' speedups at the
     * same thread count, as the tables round them, or why this run cannot
     * show them. */
    if (at < 0)
        printf("answer: not shown on this run: %s\n", cores < 2 ? "this machine has one core, so no two threads can run at once"
               : "no thread count between 2 and the cores was run");
    else if (!pin)
        printf("answer: not shown on this run: threads cannot be pinned here; unpinned, %lld threads ran %.2fx\n",
               threads.v[at], speedup_at[1]);
    else if (busy_at[1] >= 1 + PW_OVERLAP_SUSPECT * (fmin(threads.v[at], cores) - 1))
        printf("answer: at %lld threads one_core ran %.2fx the sequential speed, spread %.2fx\n", threads.v[at],
               speedup_at[0], speedup_at[1]);
    else
        printf("answer: not shown on this run: at %lld threads one_core ran %.2fx, spread %.2fx, but spread's threads "
               "did not run side by side either\n", threads.v[at], speedup_at[0], speedup_at[1]);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
