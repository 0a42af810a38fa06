/* chapters/05-amdahl/scaling.c: a program with a serial fraction you choose,
 * measured against Amdahl (fixed job) and Gustafson (job grown with N).
 *
 * The job: n elements of compute-bound work (kernels/busywork.h). A fraction
 * s of them is the serial phase, done by one thread; the rest is the parallel
 * phase, split evenly over T threads. By construction the true parallel
 * fraction is p = 1 - s, so the fit can be checked against the truth.
 *
 * Strong scaling: the same job on 1, 2, ... threads: speedup, efficiency,
 * Karp-Flatt per N, the fitted p, and the curve extended by model to 1024.
 * Weak scaling: the parallel phase grows with T (the serial phase does not):
 * the scaled speedup against Gustafson's s + N (1 - s).
 *
 *   ./build/ch05/scaling                    s = 0.05, threads 1..cores and 2x cores
 *   ./build/ch05/scaling -s 0.2 -t 1,2 --csv scaling.csv
 */
#include "busywork.h"
#include "check.h"
#include "errcheck.h"
#include "models.h"
#include "options.h"
#include "overlap.h"
#include "results.h"
#include "scaling.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>

typedef struct {
    const float *x;
    float *y;
    size_t n_serial;       /* elements of the serial phase: [0, n_serial) */
    size_t n;              /* all elements: the parallel phase is [n_serial, n) */
    int iters;             /* steps per element */
    int threads;           /* threads in the parallel phase */
    pw_overlap *ov;        /* if not NULL: whether the parallel phase's threads ran at the same time */
} job;

typedef struct { const job *j; size_t lo, hi; } chunk;

static void *run_chunk(void *arg)
{
    const chunk *c = arg;
    busy_work(c->j->x, c->j->y, c->lo, c->hi, c->j->iters);
    return NULL;
}

/* One run of the job: the serial phase on this thread, then the parallel
 * phase in `threads` equal chunks (this thread takes the first). Threads are
 * created per run: their start-up (tens of microseconds) is part of the
 * overhead a real program pays, and Karp-Flatt will see it. */
static void run_job(void *arg)
{
    const job *j = arg;
    static pthread_t tid[PW_MAX_THREADS];
    static chunk parts[PW_MAX_THREADS];
    busy_work(j->x, j->y, 0, j->n_serial, j->iters);
    size_t par = j->n - j->n_serial;
    for (int t = 0; t < j->threads; t++)
        parts[t] = (chunk){ j, j->n_serial + par * (size_t)t / (size_t)j->threads,
                            j->n_serial + par * (size_t)(t + 1) / (size_t)j->threads };
    /* Only the parallel phase is judged: the serial one runs alone by design. */
    pw_overlap_mark m = pw_overlap_begin();
    for (int t = 1; t < j->threads; t++) PW_CHECK_PTHREAD(pthread_create(&tid[t], NULL, run_chunk, &parts[t]));
    run_chunk(&parts[0]);
    for (int t = 1; t < j->threads; t++) PW_CHECK_PTHREAD(pthread_join(tid[t], NULL));
    if (j->ov) pw_overlap_end(j->ov, m);
}

static void run_serial_phase(void *arg)
{
    const job *j = arg;
    busy_work(j->x, j->y, 0, j->n_serial, j->iters);
}

static size_t serial_elements(double s, size_t n) { return (size_t)llround(s * (double)n); }

/* Every element's result depends on its input alone, so any split must give
 * the reference bit for bit: tolerance zero. */
static int verify(float *x, float *y, float *want, size_t n, double s, int iters, const pw_list *threads)
{
    int bad = 0;
    pw_fill_random(x, n, 17, 0.5f, 1.5f);
    busy_work_ref(x, want, n, iters);
    for (int i = 0; i < threads->n; i++) {
        job j = { x, y, serial_elements(s, n), n, iters, (int)threads->v[i], NULL };
        for (size_t k = 0; k < n; k++) y[k] = -1;
        run_job(&j);
        char what[64];
        snprintf(what, sizeof what, "n=%zu on %d threads", n, j.threads);
        bad |= pw_check_floats(what, y, want, n, 0, 0);
    }
    return bad;
}

/* The point the answers read: the most threads that fit on the cores (T > 1)
 * whose threads ran at the same time; -1 when there is none (one core, a busy
 * machine, or -t without such a count). share: NaN when not measured. */
static int answer_point(const pw_scaling_point *pts, const double *share, int count, int cores)
{
    int at = -1;
    for (int i = 0; i < count; i++)
        if (pts[i].threads > 1 && pts[i].threads <= cores && !(share[i] < PW_OVERLAP_SUSPECT) &&
            (at < 0 || pts[i].threads > pts[at].threads))
            at = i;
    return at;
}

/* Why an answer cannot be read from this run, in words. */
static const char *not_shown(int cores)
{
    return cores < 2 ? "one core, so threads take turns and no speedup can be measured"
                     : "no thread count from 2 to the cores ran with its threads together (see the suspect lines, "
                       "or -t): rerun on an idle machine";
}

int main(int argc, char **argv)
{
    double s = 0.05;
    pw_list sizes = PW_LIST(1048576), threads = { .n = 0 };
    long long iters = 64;
    pw_opt opts[] = {
        { "-s", "--serial", PW_OPT_DOUBLE, &s, "S", "serial fraction of the work, 0..1 (default 0.05)", 0, 1 },
        { "-n", "--size", PW_OPT_SIZES, &sizes, "N", "elements of work (default 1M)", 1, PW_SIZE_MAX },
        { NULL, "--iters", PW_OPT_INT, &iters, "K", "steps per element, 2 flops each (default 64)", 1, 1000000 },
        { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "thread counts (default 1..cores, 2x cores)", 1, PW_MAX_THREADS },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "a tunable serial fraction against Amdahl, Karp-Flatt and Gustafson",
                     opts, 4, &common);
    if (threads.n == 0) pw_default_threads(&threads, common.prog);
    if (common.tiny) { sizes = (pw_list)PW_LIST(4099); iters = 8; }
    size_t n = (size_t)sizes.v[0];
    int cores = pw_cores();
    int tmax = (int)pw_list_max(&threads);
    size_t ns = serial_elements(s, n);
    /* The weak-scaling job at tmax threads is the largest: x, y and a reference. */
    size_t nmax = ns + (size_t)tmax * (n - ns);
    pw_require_memory(common.prog, "-n", (long long)nmax, sizeof(float), 3);
    float *x = pw_alloc_floats(nmax), *y = pw_alloc_floats(nmax), *want = pw_alloc_floats(nmax);

    int bad = 0;
    static const size_t awkward[] = { 1, 7, 1001 };
    for (int i = 0; i < 3; i++) bad |= verify(x, y, want, awkward[i], s, (int)iters, &threads);
    bad |= verify(x, y, want, n, s, (int)iters, &threads);
    for (int i = 0; i < threads.n; i++)
        bad |= verify(x, y, want, ns + (size_t)threads.v[i] * (n - ns), s, (int)iters, &(pw_list)PW_LIST(threads.v[i]));
    if (bad) {
        fprintf(stderr, "%s: a split gave a wrong result; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the sequential reference (n = 1, 7, 1001, %zu and the weak-scaling sizes, every thread count)\n\n", n);
    printf("the job: %zu elements x %lld steps; serial phase %zu elements (s = %.4g), parallel phase %zu\n\n",
           n, iters, ns, (double)ns / (double)n, n - ns);

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "serial_fraction", "%.6g", (double)ns / (double)n);
    char param[32];
    snprintf(param, sizeof param, "s=%g", s);
    pw_bench_config cfg = pw_bench_from_opts(&common);
    cfg.min_sample_s = 0;                     /* one job per sample: each is many ms */
    double flops_per_elem = 2.0 * (double)iters;

    /* ---- strong scaling: Amdahl ---- */
    printf("== strong scaling: the same job on more threads (Amdahl)\n");
    /* The points are sampled in turns (pw_bench_sweep): this machine's speed
     * drifts by 10% over seconds, which would otherwise bias the ratios. */
    pw_scaling_point pts[PW_MAX_LIST];
    job jobs[PW_MAX_LIST];
    void *ctxs[PW_MAX_LIST];
    pw_work_fn fns[PW_MAX_LIST];
    pw_bench_stats sts[PW_MAX_LIST];
    pw_overlap ovs[PW_MAX_LIST];
    for (int i = 0; i < threads.n; i++) {
        ovs[i] = (pw_overlap){ 0, 0, 0 };
        jobs[i] = (job){ x, y, ns, n, (int)iters, (int)threads.v[i], &ovs[i] };
        ctxs[i] = &jobs[i];
        fns[i] = run_job;
    }
    pw_bench_sweep(&cfg, fns, ctxs, threads.n, sts);
    for (int i = 0; i < threads.n; i++) { pts[i].threads = jobs[i].threads; pts[i].st = sts[i]; }
    double base = pts[0].st.median;
    for (int i = 0; i < threads.n; i++) if (pts[i].threads == 1) base = pts[i].st.median;
    pw_scaling_fit fit = pw_scaling_report_overlap(csv, "strong", (long long)n, param, base, pts, threads.n,
                                                   flops_per_elem * (double)n, 0, cores, ovs);
    double p_true = 1 - (double)ns / (double)n;
    /* The theory curve the figure always draws, fit or no fit (plots/speedup.gp). */
    pw_csv_meta(csv, "theory_strong", "p=%.6f", p_true);
    bool fitted = !isnan(fit.p) && fit.p > 0 && fit.p < 1;
    if (!isnan(fit.p))
        printf("true p = %.4f (by construction): the fit is off by %+.4f%s\n", p_true, fit.p - p_true,
               fit.p <= 0 ? " (it found no parallel part: this run showed no speedup)" : "");
    /* Karp-Flatt against the true serial fraction, at the points that ran in
     * parallel: what this run says, then the theory of how to read it. */
    for (int i = 0; i < threads.n; i++) {
        double e = fit.karp_flatt[i], sfrac = 1 - p_true;
        if (isnan(e) || fit.overlap[i] < PW_OVERLAP_SUSPECT) continue;
        printf("e at %d threads = %.4f against s = %.4f: ", pts[i].threads, e, sfrac);
        if (e < 0 || e > 1) printf("outside 0..1, not a serial fraction (see above)\n");
        else if (fabs(e - sfrac) <= 0.02 + 0.25 * sfrac) printf("about s: the serial phase is all the overhead there is\n");
        else if (e > sfrac) printf("above s by %.4f: overhead beyond the serial phase (thread start-up, the machine)\n", e - sfrac);
        else printf("below s by %.4f: the threads did better than the serial phase allows (noise, or caches)\n", sfrac - e);
    }
    printf("theory: Karp-Flatt e(N) estimates the serial fraction from each speedup; near s means the serial\n"
           "phase is all there is, above s is overhead, and a rise with N says the overhead grows with the threads.\n\n");

    if (fitted) {
        printf("the fitted curve extended by model (this machine has %d cores; beyond them this is the model, not a "
               "measurement):\n%8s %10s %11s\n", cores, "N", "speedup", "efficiency");
        for (int nn = 1; nn <= 1024; nn *= 2) {
            double sp = pw_amdahl(fit.p, nn);
            printf("%8d %9.2fx %10.1f%%\n", nn, sp, 100 * pw_efficiency(sp, nn));
            pw_csv_quantity(csv, "amdahl_fit", nn, nn, param, sp);
        }
        int half = 1;
        while (half < 1 << 24 && pw_efficiency(pw_amdahl(fit.p, half), half) >= 0.5) half++;
        printf("model: ceiling %.1fx; efficiency falls below 50%% from N = %d on\n\n", pw_amdahl_ceiling(fit.p), half);
    } else {
        printf("no fitted curve to extend: %s\n\n", isnan(fit.p) ? "the fit was n/a (see above)"
               : fit.p <= 0 ? "p = 0, this run showed no speedup" : "p = 1, this run showed no serial part");
    }
    /* The answer to the README's prediction: the measured speedup against
     * what Amdahl allows with the true p, and the fitted p against the true. */
    int at = answer_point(pts, fit.overlap, threads.n, cores);
    if (at < 0) {
        printf("answer: not shown on this run: %s\n\n", not_shown(cores));
    } else {
        double allowed = pw_amdahl(p_true, pts[at].threads);
        printf("answer: on %d threads the job ran %.2fx, %.0f%% of the %.2fx Amdahl allows with the true p = %.4f",
               pts[at].threads, fit.speedup[at], 100 * fit.speedup[at] / allowed, allowed, p_true);
        if (isnan(fit.p)) printf("; no p was fitted\n\n");
        else printf("; the fitted p = %.4f is %s the true p by %.4f\n\n", fit.p, fit.p < p_true ? "below" : "above",
                    fabs(fit.p - p_true));
    }
    /* The true curve is theory (p by construction), drawn whatever the fit. */
    for (int nn = 1; nn <= 1024; nn *= 2) pw_csv_quantity(csv, "amdahl_true", nn, nn, param, pw_amdahl(p_true, nn));

    /* ---- weak scaling: Gustafson ---- */
    printf("== weak scaling: the parallel phase grows with the threads (Gustafson)\n");
    double weak_share[PW_MAX_LIST], weak_scaled[PW_MAX_LIST];
    int weak_t[PW_MAX_LIST];
    for (int i = 0; i < threads.n; i++) weak_t[i] = (int)threads.v[i];
    printf("%8s %10s %12s %12s %12s %10s %11s\n", "threads", "elements", "T_N median", "T_1 median",
           "scaled S", "s_N", "s+N(1-s)");
    for (int i = 0; i < threads.n; i++) {
        int t = (int)threads.v[i];
        size_t nt = ns + (size_t)t * (n - ns);
        pw_overlap ov = { 0, 0, 0 };
        job par = { x, y, ns, nt, (int)iters, t, &ov }, one = { x, y, ns, nt, (int)iters, 1, NULL };
        pw_bench_stats pair[2], ts;
        pw_bench_sweep(&cfg, (const pw_work_fn[]){ run_job, run_job }, (void *const[]){ &par, &one }, 2, pair);
        par.ov = NULL;   /* the serial phase alone is not a threaded run */
        pw_bench(&cfg, run_serial_phase, &par, &ts);
        weak_share[i] = pw_overlap_share(&ov, t, cores);
        pw_bench_stats tn = pair[0], t1 = pair[1];
        double scaled = weak_scaled[i] = t1.median / tn.median;
        double s_n = ts.median / tn.median;     /* Gustafson's s: the serial share of the N-thread run */
        double pred = pw_gustafson(s_n, t);
        printf("%8d %10zu %9.2f ms %9.2f ms %11.2fx %10.3f", t, nt, tn.median * 1e3, t1.median * 1e3, scaled, s_n);
        if (t <= cores) printf(" %10.2fx", pred);
        else printf(" %11s", "-  oversubscribed");
        if (weak_share[i] < PW_OVERLAP_SUSPECT) printf("   suspect: together %.0f%%", 100 * weak_share[i]);
        printf("\n");
        pw_csv_summary_overlap(csv, "weak", (long long)nt, t, param, &tn, flops_per_elem * (double)nt, 0, weak_share[i]);
        pw_csv_summary(csv, "weak_1thread", (long long)nt, 1, param, &t1, flops_per_elem * (double)nt, 0);
        pw_csv_quantity(csv, "scaled_speedup", (long long)nt, t, param, scaled);
        if (t <= cores) pw_csv_quantity(csv, "gustafson_model", (long long)nt, t, param, pred);
    }

    pw_overlap_warn_sweep(stdout, "weak", weak_t, weak_share, threads.n, cores);
    /* The answer: grown job against fixed job at the same thread count, both
     * from points whose threads ran together. */
    int wat = answer_point(pts, weak_share, threads.n, cores);
    if (wat < 0 || at < 0 || pts[wat].threads != pts[at].threads)
        printf("answer: not shown on this run: %s\n", not_shown(cores));
    else
        printf("answer: on %d threads the grown job's scaled speedup was %.2fx against the fixed job's %.2fx: "
               "%s\n", pts[wat].threads, weak_scaled[wat], fit.speedup[at],
               weak_scaled[wat] > fit.speedup[at] ? "growing the job made the serial part a smaller share"
                                                  : "growing the job did not help on this run (noise, or the machine)");

    printf("\n== theory: the two laws, side by side, for s = %.3f\n%8s %18s %20s\n", 1 - p_true, "N",
           "Amdahl (fixed job)", "Gustafson (grown job)");
    for (int nn = 1; nn <= 1024; nn *= 4)
        printf("%8d %17.2fx %19.1fx\n", nn, pw_amdahl(p_true, nn), pw_gustafson(1 - p_true, nn));
    printf("Amdahl: how much faster does THIS job get? Gustafson: how much MORE work gets done in the\n"
           "same time if the job grows with the machine? Same serial part, different questions.\n");

    pw_free(x); pw_free(y); pw_free(want);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
