/* chapters/04-openmp/mandel.c: load imbalance. The Mandelbrot set under the
 * four OpenMP schedules, and the straggler everyone waits for.
 *
 * A row of pixels through the body of the set costs hundreds of times a row
 * above it (kernels/mandel.h). The loop over rows is the same in every
 * variant; only the schedule clause differs:
 *   static      one contiguous block of rows per thread
 *   static_1    rows dealt round-robin, one at a time
 *   dynamic_K   threads grab K rows at a time from a shared counter (-k K)
 *   guided      grabs that shrink as the rows run out
 * Each variant is checked pixel for pixel against the sequential reference,
 * swept over threads (speedup against the sequential loop, Amdahl fit), and
 * then run on as many threads as cores with each thread's busy time and
 * work recorded: with schedule(static) one thread gets the heavy rows and
 * finishes long after the others, and the loop takes as long as it does.
 *
 *   ./build/ch04/mandel                     480 x 320 pixels, 500 steps at most
 *   ./build/ch04/mandel -n 1800 -i 5000 -k 16 -t 1,2
 *
 * What to expect on 2 cores: static about 1.3x (one thread has about three
 * quarters of the work), static_1, dynamic and guided close to 2x.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "mandel.h"
#include "omp_info.h"
#include "options.h"
#include "overlap.h"
#include "results.h"
#include "scaling.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SCHED_STATIC, SCHED_STATIC1, SCHED_DYNAMIC, SCHED_GUIDED, NSCHED };

typedef struct {
    const mandel_params *m;
    int32_t *iters;
    int sched, chunk;
    mandel_stats *stats;   /* per thread, or NULL */
    long long total;
    pw_overlap ov;         /* whether the team's threads ran at the same time */
} mandel_ctx;

static void sched_name(int sched, int chunk, char *buf, size_t len)
{
    static const char *names[NSCHED] = { "static", "static_1", "dynamic", "guided" };
    if (sched == SCHED_DYNAMIC) snprintf(buf, len, "dynamic_%d", chunk);
    else snprintf(buf, len, "%s", names[sched]);
}

static long long run_sched(const mandel_params *m, int32_t *iters, int sched, int chunk, mandel_stats *stats)
{
    switch (sched) {
    case SCHED_STATIC: return mandel_static(m, iters, stats);
    case SCHED_STATIC1: return mandel_static1(m, iters, stats);
    case SCHED_DYNAMIC: return mandel_dynamic(m, iters, chunk, stats);
    default: return mandel_guided(m, iters, stats);
    }
}

static void run_seq(void *p) { mandel_ctx *c = p; c->total = mandel_seq(c->m, c->iters); }
static void run_omp(void *p)
{
    mandel_ctx *c = p;
    pw_overlap_mark m = pw_overlap_begin();
    c->total = run_sched(c->m, c->iters, c->sched, c->chunk, c->stats);
    pw_overlap_end(&c->ov, m);
}

/* Every schedule on every thread count must reproduce the reference counts
 * exactly (the same row function on the same doubles, see mandel.h), so
 * the tolerance is zero. The counts go through double for the checker. */
static int verify(int width, int height, int maxiter, int chunk, const pw_list *threads,
                  int32_t *got, int32_t *want, double *gd, double *wd)
{
    mandel_params m = mandel_view(width, height, maxiter);
    size_t np = (size_t)width * (size_t)height;
    long long ref_total = mandel_seq(&m, want);
    for (size_t i = 0; i < np; i++) wd[i] = want[i];
    int bad = 0;
    for (int s = 0; s < NSCHED; s++) {
        for (int t = 0; t < threads->n; t++) {
            char name[32], what[96];
            sched_name(s, chunk, name, sizeof name);
            snprintf(what, sizeof what, "%s %dx%d threads=%lld", name, width, height, threads->v[t]);
            pw_omp_set_threads((int)threads->v[t]);
            memset(got, 0xff, np * sizeof *got);   /* -1 everywhere: a skipped pixel shows */
            long long total = run_sched(&m, got, s, chunk, NULL);
            for (size_t i = 0; i < np; i++) gd[i] = got[i];
            bad |= pw_check_doubles(what, gd, wd, np, 0, 0);
            bad |= pw_check_scalar(what, (double)total, (double)ref_total, 0, 0);
        }
    }
    return bad;
}

/* On T threads: run each schedule `runs` times with per-thread stats, keep
 * the run with the median wall time, print and record who did what. The
 * rows go to csv as variant=busy_<schedule> (apart from the sweep's rows, so
 * the speedup plot does not take them for points), param=thread=K (busy
 * time, its steps as flops) and param=wall (the whole loop). */
typedef struct {
    double top_share;    /* schedule(static): the busiest thread's share of the steps */
    int top_thread;      /* and which thread that was */
    double slow_mean;    /* schedule(static): slowest thread's busy time / the mean */
    bool together;       /* schedule(static)'s threads ran at the same time */
} static_split;

static static_split per_thread(pw_csv *csv, const mandel_params *m, int32_t *iters, int chunk, int T, int runs,
                               int cores)
{
    static_split split = { 0, 0, 0, false };
    mandel_stats *stats = pw_alloc_bytes((size_t)T * sizeof *stats * (size_t)runs);
    double *wall = malloc((size_t)runs * sizeof *wall), *sorted = malloc((size_t)runs * sizeof *sorted);
    long long pixels = (long long)m->width * m->height;
    printf("\nwho did what, on %d threads (the run with the median time of %d):\n", T, runs);
    printf("%-10s %6s %6s %13s %11s %9s\n", "schedule", "thread", "rows", "steps (M)", "busy", "of wall");
    pw_omp_set_threads(T);
    for (int s = 0; s < NSCHED; s++) {
        char name[32];
        sched_name(s, chunk, name, sizeof name);
        pw_overlap ov = { 0, 0, 0 };
        for (int r = 0; r < runs; r++) {
            pw_overlap_mark mark = pw_overlap_begin();
            double t0 = pw_now();
            run_sched(m, iters, s, chunk, stats + (size_t)r * T);
            wall[r] = sorted[r] = pw_now() - t0;
            pw_overlap_end(&ov, mark);
        }
        double med = pw_median(sorted, runs);
        int pick = 0;
        for (int r = 1; r < runs; r++)
            if (fabs(wall[r] - med) < fabs(wall[pick] - med)) pick = r;
        const mandel_stats *st = stats + (size_t)pick * T;
        double sum = 0, mx = 0;
        char busy[40];
        snprintf(busy, sizeof busy, "busy_%s", name);
        for (int t = 0; t < T; t++) {
            char param[24];
            snprintf(param, sizeof param, "thread=%d", t);
            printf("%-10s %6d %6d %13.1f %8.2f ms %8.0f%%\n", t ? "" : name, t, st[t].rows, st[t].iters * 1e-6,
                   st[t].busy_s * 1e3, 100 * st[t].busy_s / wall[pick]);
            pw_csv_value(csv, busy, pixels, T, param, st[t].busy_s, (double)st[t].iters * MANDEL_FLOPS_PER_ITER, 0);
            sum += st[t].busy_s;
            if (st[t].busy_s > mx) mx = st[t].busy_s;
        }
        pw_bench_stats one;   /* the whole loop, with its overlap */
        memset(&one, 0, sizeof one);
        one.reps = 1;
        one.median = one.min = one.q1 = one.q3 = one.max = one.mean = wall[pick];
        pw_csv_summary_overlap(csv, busy, pixels, T, "wall", &one, 0, 0, pw_overlap_share(&ov, T, cores));
        printf("%-10s wall %.2f ms; slowest thread / mean thread = %.2f\n", "", wall[pick] * 1e3, mx / (sum / T));
        if (s == SCHED_STATIC) {
            long long all = 0;
            for (int t = 0; t < T; t++) {
                all += st[t].iters;
                if (st[t].iters > st[split.top_thread].iters) split.top_thread = t;
            }
            split.top_share = all ? (double)st[split.top_thread].iters / (double)all : 0;
            split.slow_mean = mx / (sum / T);
            split.together = !pw_overlap_suspect(&ov, T, cores);
        }
        char what[64];
        snprintf(what, sizeof what, "who did what under %s", name);
        pw_overlap_warn(stdout, what, &ov, T, cores);
    }
    printf("busy: from a thread's first row to its last; the loop ends when the slowest one does.\n");
    pw_free(stats);
    free(wall);
    free(sorted);
    return split;
}

int main(int argc, char **argv)
{
    long long width = 480, maxiter = 500, chunk = 4;
    pw_list threads = { .n = 0 };
    pw_opt opts[] = {
        { "-n", "--width", PW_OPT_INT, &width, "W", "image width in pixels; height = 2W/3 (default 480)", 3, 1 << 20 },
        { "-i", "--maxiter", PW_OPT_INT, &maxiter, "I", "steps before a point counts as inside (default 500)", 1,
          1 << 24 },
        { "-k", "--chunk", PW_OPT_INT, &chunk, "K", "rows per grab for schedule(dynamic, K) (default 4)", 1, 1 << 20 },
        { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "thread counts (default 1,2,..,cores, 2x cores)",
          1, PW_MAX_THREADS },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "Mandelbrot under four OpenMP schedules: load imbalance and the straggler",
                     opts, 4, &common);
    if (threads.n == 0) pw_default_threads(&threads, common.prog);
    if (common.tiny) { width = 61; maxiter = 300; }
    int height = (int)(2 * width / 3);
    long long pixels = width * height;
    /* iters and want (int32), and their double copies for the checker. */
    pw_require_memory(common.prog, "-n", pixels, 2 * sizeof(int32_t) + 2 * sizeof(double), 1);
    int cores = pw_cores();

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_omp_report(stdout, csv);
    if (!pw_omp_enabled()) threads = (pw_list)PW_LIST(1);
    pw_csv_meta(csv, "mandel_view", "x0=%g y1=%g width=%lld height=%d maxiter=%lld", -2.2, 1.4, width, height,
                maxiter);

    int32_t *iters = pw_alloc_bytes((size_t)pixels * sizeof *iters);
    int32_t *want = pw_alloc_bytes((size_t)pixels * sizeof *want);
    double *gd = pw_alloc_doubles((size_t)pixels), *wd = pw_alloc_doubles((size_t)pixels);

    /* Awkward shapes first (1 row; fewer rows than threads; odd sizes), on
     * 1, 2, 3 and 7 threads, then the timed size on the swept counts. */
    pw_list check_threads = PW_LIST(1, 2, 3, 7);
    static const int shapes[][2] = { { 1, 1 }, { 7, 5 }, { 61, 41 }, { 123, 77 } };
    int bad = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (shapes[i][0] * shapes[i][1] <= pixels)
            bad |= verify(shapes[i][0], shapes[i][1], (int)maxiter, (int)chunk, &check_threads, iters, want, gd, wd);
    bad |= verify((int)width, height, (int)maxiter, (int)chunk, &threads, iters, want, gd, wd);
    if (bad) {
        fprintf(stderr, "%s: a schedule gave a wrong image; nothing was timed\n", common.prog);
        pw_csv_close(csv);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the references (every pixel's step count, exactly: 1x1, 7x5, 61x41, 123x77 "
           "on 1, 2, 3, 7 threads, and %lldx%d)\n\n", width, height);

    mandel_params m = mandel_view((int)width, height, (int)maxiter);
    pw_bench_config cfg = pw_bench_from_opts(&common);
    mandel_ctx ctx = { &m, iters, 0, (int)chunk, NULL, 0, { 0, 0, 0 } };
    pw_bench_stats seq;
    pw_bench(&cfg, run_seq, &ctx, &seq);
    double flops = (double)ctx.total * MANDEL_FLOPS_PER_ITER, bytes = 4.0 * (double)pixels;
    printf("mandel_seq: %.4g ms for %lldx%d pixels, %.1f M steps (%.1f per pixel), %.2f GFLOP/s\n\n",
           seq.median * 1e3, width, height, ctx.total * 1e-6, (double)ctx.total / (double)pixels,
           pw_gflops(flops, seq.median));
    pw_csv_summary(csv, "mandel_seq", pixels, 1, "", &seq, flops, bytes);

    /* The thread sweep of every schedule. */
    int tcores = 1;   /* the most threads swept that still fit on the cores */
    for (int t = 0; t < threads.n; t++)
        if (threads.v[t] <= cores && threads.v[t] > tcores) tcores = (int)threads.v[t];
    double best = 0, worst = 1e300;
    int nsuspect = 0;   /* schedules whose tcores-thread point did not run in parallel */
    char best_name[32] = "", worst_name[32] = "";
    for (int s = 0; s < NSCHED; s++) {
        char name[32];
        sched_name(s, (int)chunk, name, sizeof name);
        pw_scaling_point pts[PW_MAX_LIST];
        pw_overlap ovs[PW_MAX_LIST];
        for (int t = 0; t < threads.n; t++) {
            pts[t].threads = (int)threads.v[t];
            pw_omp_set_threads(pts[t].threads);
            ctx.sched = s;
            ctx.ov = (pw_overlap){ 0, 0, 0 };
            pw_bench(&cfg, run_omp, &ctx, &pts[t].st);
            ovs[t] = ctx.ov;
        }
        pw_scaling_fit fit = pw_scaling_report_overlap(csv, name, pixels, "", seq.median, pts, threads.n, flops, bytes,
                                                       cores, ovs);
        printf("\n");
        for (int t = 0; t < threads.n; t++) {
            if (pts[t].threads != tcores) continue;
            nsuspect += fit.overlap[t] < PW_OVERLAP_SUSPECT;
            if (fit.speedup[t] > best) { best = fit.speedup[t]; snprintf(best_name, sizeof best_name, "%s", name); }
            if (fit.speedup[t] < worst) { worst = fit.speedup[t]; snprintf(worst_name, sizeof worst_name, "%s", name); }
        }
    }
    static_split split = per_thread(csv, &m, iters, (int)chunk, tcores, common.tiny ? 1 : 5, cores);

    /* The answers to the README's predictions, from the tables above. */
    if (tcores < 2)
        printf("\nanswer: not shown on this run: %s, so every schedule runs on one thread and none can "
               "balance anything\n", cores < 2 ? "one core" : "no thread count from 2 to the cores was swept");
    else if (nsuspect)
        printf("\nanswer: not shown on this run: on %d threads the slowest schedule was %s (%.2fx), the fastest %s "
               "(%.2fx), but their threads did not all run at the same time (see the suspect lines): the ranking is "
               "the machine's load as much as the schedules'\n", tcores, worst_name, worst, best_name, best);
    else
        printf("\nanswer: on %d threads the slowest schedule was %s (%.2fx against mandel_seq), the fastest %s "
               "(%.2fx)\n", tcores, worst_name, worst, best_name, best);
    if (tcores >= 2)
        printf("answer: under static thread %d did %.0f%% of the steps (an even split is %.0f%%); its busy time "
               "was %.2fx the mean thread's%s\n", split.top_thread, 100 * split.top_share, 100.0 / tcores,
               split.slow_mean, split.together ? "" : " (its threads did not run together: the times are "
               "the machine's load too)");

    pw_free(iters); pw_free(want); pw_free(gd); pw_free(wd);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
