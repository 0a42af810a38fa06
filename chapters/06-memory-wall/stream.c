/* chapters/06-memory-wall/stream.c: how many bytes per second the memory
 * gives a program: STREAM's copy, scale, add and triad, on 1..cores threads,
 * beside McCalpin's own STREAM built from its source in the same run.
 *
 * Counted as STREAM counts (kernels/stream.h): double, 16 bytes per element
 * for copy and scale, 24 for add and triad, the write-allocate read not
 * counted. Arrays default to 80M doubles (640 MiB each, STREAM's own default);
 * STREAM's rule is 4x the last-level cache, and the program says when the
 * arrays are smaller than that (-n sets them).
 *
 * Each thread count gets fresh arrays, first touched by the team that will
 * use them, then `rounds` rounds; a round is 1 + R trials of the four kernels
 * (the first trial not counted, as STREAM skips its first). STREAM reports
 * the best trial; we also keep the median and the spread. The arrays are then
 * validated as STREAM validates them (every element, not the mean). With
 * STREAM_SRC=/path/to/stream.c (or --stream-src), McCalpin's STREAM is
 * built with -O3 -march=native -fopenmp at the same size and run at each
 * thread count, taking turns with ours, and the ratio ours/STREAM printed.
 *
 *   ./build/ch06/stream                      80M doubles, threads 1, 2, 4 ... cores
 *   STREAM_SRC=~/stream.c ./build/ch06/stream -t 1,2 --csv stream.csv
 */
#define _POSIX_C_SOURCE 200809L
#include "omp_info.h"
#include "options.h"
#include "overlap.h"
#include "probe.h"
#include "results.h"
#include "scaling.h"
#include "stream.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STREAM_URL "https://www.cs.virginia.edu/stream/FTP/Code/stream.c"
#define TARGET 0.05      /* the issue's target: ours within 5% of STREAM, both ways */

/* ---- McCalpin's STREAM, built and run beside ours ------------------------ */

typedef struct {
    char dir[64];        /* temporary folder with the binary and the compiler's log */
    char bin[96];
    bool ready;
} mccalpin;

/* Build STREAM with the array size and trial count of ours. Returns false
 * (after one line) when it cannot be built: the comparison is skipped, the
 * run goes on. */
static bool mccalpin_build(mccalpin *m, const char *src, long n, int ntimes)
{
    const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
    const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(m->dir, sizeof m->dir, "%.40s/pw-stream.XXXXXX", tmpdir);
    if (!mkdtemp(m->dir)) { printf("McCalpin's STREAM: not compared (no temporary folder in %s)\n", tmpdir); return false; }
    snprintf(m->bin, sizeof m->bin, "%s/stream", m->dir);
    /* Its arrays are static: past 2 GiB of them x86-64 needs the medium code model. */
    const char *model = "";
#if defined(__x86_64__)
    if (3.0 * (double)n * sizeof(double) > 2e9) model = "-mcmodel=medium ";
#endif
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s -O3 -march=native -fopenmp %s-DSTREAM_ARRAY_SIZE=%ld -DNTIMES=%d '%s' -o '%s' >'%s/cc.log' 2>&1",
             cc, model, n, ntimes, src, m->bin, m->dir);
    printf("McCalpin's STREAM: $ %.*s\n", (int)(strstr(cmd, " >") - cmd), cmd);
    if (system(cmd) != 0) {
        printf("McCalpin's STREAM: not compared: %s could not build it (its messages: %s/cc.log)\n", cc, m->dir);
        return false;
    }
    m->ready = true;
    return true;
}

static void mccalpin_remove(mccalpin *m)
{
    if (!m->dir[0]) return;
    char path[128];
    snprintf(path, sizeof path, "%s/cc.log", m->dir);
    if (m->ready) { unlink(m->bin); unlink(path); rmdir(m->dir); }   /* a failed build's log stays, to read */
}

/* Run it once on `threads` threads; best[k] gets its best rate per kernel
 * (GB/s: its MB/s are 1e6 bytes). Returns false, with one line, when it did
 * not validate or its output could not be read. */
static bool mccalpin_run(const mccalpin *m, int threads, double best[STREAM_KERNELS])
{
    static const char *labels[STREAM_KERNELS] = { "Copy:", "Scale:", "Add:", "Triad:" };
    char env[16];
    snprintf(env, sizeof env, "%d", threads);
    setenv("OMP_NUM_THREADS", env, 1);     /* read by its OpenMP runtime, not ours (already started) */
    FILE *p = popen(m->bin, "r");
    if (!p) { printf("McCalpin's STREAM did not start\n"); return false; }
    char line[512];
    int found = 0, counted = 0;
    bool validates = false;
    while (fgets(line, sizeof line, p)) {
        for (int k = 0; k < STREAM_KERNELS; k++) {
            double rate;
            if (!strncmp(line, labels[k], strlen(labels[k])) && sscanf(line + strlen(labels[k]), "%lf", &rate) == 1) {
                best[k] = rate * 1e-3;
                found++;
            }
        }
        if (strstr(line, "Solution Validates")) validates = true;
        sscanf(line, "Number of Threads counted = %d", &counted);
    }
    int rc = pclose(p);
    if (rc != 0 || found != STREAM_KERNELS || !validates) {
        printf("McCalpin's STREAM on %d threads: %s\n", threads,
               !validates ? "its results did not validate (or it did not say)" : "its output could not be read");
        return false;
    }
    if (counted && counted != threads)
        printf("McCalpin's STREAM ran %d threads where %d were asked\n", counted, threads);
    return true;
}

/* ---- ours ----------------------------------------------------------------- */

typedef struct {
    double *a, *b, *c;
    long n;
    int rounds;          /* rounds of the four kernels run so far (for the check) */
} arrays;

static void arrays_alloc(arrays *x, long n)
{
    x->a = pw_alloc_doubles((size_t)n);
    x->b = pw_alloc_doubles((size_t)n);
    x->c = pw_alloc_doubles((size_t)n);
    x->n = n;
    x->rounds = 0;
    stream_init(x->a, x->b, x->c, n);     /* first touch, by the team that will run */
}

static void arrays_free(arrays *x) { pw_free(x->a); pw_free(x->b); pw_free(x->c); }

/* One trial: the four kernels in STREAM's order, each timed alone with the
 * parallel region inside the clock, as STREAM times them. */
static void trial(arrays *x, double seconds[STREAM_ALL])
{
    /* copy_loop right after copy: it writes c = a again, changing nothing */
    static const int order[STREAM_ALL] = { STREAM_COPY, STREAM_COPY_LOOP, STREAM_SCALE, STREAM_ADD, STREAM_TRIAD };
    for (int i = 0; i < STREAM_ALL; i++) {
        int k = order[i];
        double t0 = pw_now();
        stream_kernel(k, x->a, x->b, x->c, STREAM_SCALAR, x->n);
        seconds[k] = pw_now() - t0;
    }
    x->rounds++;
}

/* STREAM's check, on every element: exit 1 with the first bad index. */
static bool arrays_check(const arrays *x, const char *what)
{
    double want[3];
    stream_expected(x->rounds, STREAM_SCALAR, &want[0], &want[1], &want[2]);
    const double *got[3] = { x->a, x->b, x->c };
    for (int i = 0; i < 3; i++) {
        long bad = stream_first_bad(got[i], x->n, want[i]);
        if (bad >= 0) {
            fprintf(stderr, "%s: %c[%ld] = %.17g, want %.17g (after %d rounds; first bad index)\n", what,
                    "abc"[i], bad, got[i][bad], want[i], x->rounds);
            return false;
        }
    }
    return true;
}

/* Before anything is timed: the kernels on awkward sizes at every thread
 * count (a slice of 0 or 1 element per thread, sizes no vector width divides). */
static bool verify_small(const pw_list *threads)
{
    static const long sizes[] = { 1, 7, 33, 257, 1001 };
    for (int t = 0; t < threads->n; t++) {
        pw_omp_set_threads((int)threads->v[t]);
        for (int s = 0; s < 5; s++) {
            arrays x;
            arrays_alloc(&x, sizes[s]);
            double sec[STREAM_ALL];
            for (int r = 0; r < 3; r++) trial(&x, sec);
            char what[64];
            snprintf(what, sizeof what, "n=%ld on %lld threads", sizes[s], threads->v[t]);
            bool ok = arrays_check(&x, what);
            arrays_free(&x);
            if (!ok) return false;
        }
    }
    return true;
}

/* What one thread count gave. */
typedef struct {
    int threads;
    pw_bench_stats st[STREAM_ALL];        /* ours, over every counted trial */
    double best_gbs[STREAM_ALL];          /* ours: STREAM's statistic */
    double mc_gbs[STREAM_KERNELS];        /* McCalpin's best over its runs; 0: none */
    double overlap;                       /* common/overlap.h; NaN at one thread */
} point;

static void default_threads(pw_list *t, const char *prog)
{
    const char *env = getenv("THREADS");    /* make passes THREADS= (empty) when not set */
    if (env && *env) { pw_default_threads(t, prog); return; }
    /* 1, 2, 4 ... and the cores: oversubscribing a bandwidth test shows
     * nothing but the threads taking turns. */
    int cores = pw_cores();
    t->n = 0;
    for (int k = 1; k < cores && t->n < PW_MAX_LIST - 1; k *= 2) t->v[t->n++] = k;
    t->v[t->n++] = cores;
}

/* Threads that took turns on one core measured the machine's load, not the memory. */
static bool suspect(const point *p) { return !isnan(p->overlap) && p->overlap < PW_OVERLAP_SUSPECT; }

static double gbs(int k, long n, double seconds) { return stream_bytes(k, n) / seconds * 1e-9; }

int main(int argc, char **argv)
{
    pw_list threads = { .n = 0 };
    long long n_opt = 80000000, rounds = 3, corrupt = -1;
    const char *src = getenv("STREAM_SRC");
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_INT, &n_opt, "N", "doubles per array (default 80M: 640 MiB, STREAM's default)", 1, PW_SIZE_MAX },
        { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "thread counts (default 1, 2, 4 ... cores)", 1, PW_MAX_THREADS },
        { NULL, "--rounds", PW_OPT_INT, &rounds, "R", "rounds per thread count, ours and STREAM's in turns (default 3)", 1, 5 },
        { NULL, "--stream-src", PW_OPT_STRING, &src, "FILE", "McCalpin's stream.c to compare with (or STREAM_SRC=FILE)", 0, 0 },
        { NULL, "--corrupt", PW_OPT_INT, &corrupt, "I", "test hook: spoil a[I] after the trials (the check must fail)", 0, PW_SIZE_MAX },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "STREAM's copy, scale, add, triad on 1..cores threads, beside McCalpin's STREAM",
                     opts, 5, &common);
    if (common.tiny) n_opt = 200003;
    long n = (long)n_opt;
    /* At least 10 counted trials, as STREAM's rule; -r sets more. Each round
     * multiplies the values by 15 (stream_expected), so 5 x 41 rounds is the
     * most a double holds (15^205 = 1e241). */
    int trials = common.reps ? common.reps : 10;
    if (common.tiny) { trials = common.reps ? common.reps : 3; rounds = 1; }
    if (trials > 40) { fprintf(stderr, "%s: -r %d: at most 40 trials per round (the values would overflow)\n", common.prog, trials); return PW_EXIT_USAGE; }
    if (src && !*src) src = NULL;
    if (src && access(src, R_OK) != 0) {
        fprintf(stderr, "%s: STREAM source '%s' cannot be read (get it: %s)\n", common.prog, src, STREAM_URL);
        return PW_EXIT_USAGE;
    }
    if (threads.n == 0) default_threads(&threads, common.prog);
    pw_require_memory(common.prog, "-n", n, sizeof(double), src ? 6 : 3);  /* STREAM's three arrays too */

    setvbuf(stdout, NULL, _IOLBF, 0);   /* a long run: each line as it comes */
    pw_hw hw;
    pw_probe_static(&hw);
    int cores = pw_cores();
    pw_omp_report(stdout, NULL);
    long llc = hw.l3 ? hw.l3 : hw.l2;
    char b1[32], b2[32], b3[32];
    printf("arrays: 3 x %ld doubles = 3 x %s; last-level cache reported: %s", n,
           pw_fmt_bytes((double)n * 8, b1, sizeof b1), llc ? pw_fmt_bytes((double)llc, b2, sizeof b2) : "unknown");
    if (llc && (double)n * 8 < 4.0 * (double)llc)
        printf("\n  smaller than STREAM's rule of 4x the last-level cache (%s each: -n %ld); part of a trial may be served\n"
               "  by the cache, if the cache is really that big (a virtual machine may report more than it has)\n",
               pw_fmt_bytes(4.0 * (double)llc, b3, sizeof b3), 4 * llc / 8);
    else printf(": at least 4x, STREAM's rule\n");

    if (!verify_small(&threads)) {
        fprintf(stderr, "%s: a kernel gave a wrong result; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all kernels match STREAM's expected values (n = 1, 7, 33, 257, 1001; %d thread count%s)\n",
           threads.n, threads.n > 1 ? "s" : "");

    mccalpin mc = { .ready = false };
    mc.dir[0] = '\0';
    if (!src) printf("McCalpin's STREAM: not compared; to compare, get it (%s) and set STREAM_SRC=/path/to/stream.c\n", STREAM_URL);
    else mccalpin_build(&mc, src, n, trials + 1);
    printf("%d round%s per thread count, each 1 + %d trials of the four kernels (the first not counted)%s\n\n",
           (int)rounds, rounds > 1 ? "s" : "", trials, mc.ready ? ", ours and McCalpin's in turns" : "");

    point *pts = calloc((size_t)threads.n, sizeof *pts);
    if (!pts) { fprintf(stderr, "%s: out of memory\n", common.prog); return PW_EXIT_WRONG; }
    double *samples[STREAM_ALL];
    int per = (int)rounds * trials;
    for (int k = 0; k < STREAM_ALL; k++) {
        samples[k] = malloc((size_t)per * sizeof(double));
        if (!samples[k]) { fprintf(stderr, "%s: out of memory\n", common.prog); return PW_EXIT_WRONG; }
    }
    bool mc_ok = mc.ready;

    printf("%7s %-9s %10s %10s %6s %12s %12s\n", "threads", "kernel", "best GB/s", "median", "IQR", "STREAM best",
           "ours/STREAM");
    for (int ti = 0; ti < threads.n; ti++) {
        point *p = &pts[ti];
        p->threads = (int)threads.v[ti];
        if (p->threads > 1 && !pw_omp_enabled()) {
            printf("%7d skipped: built without OpenMP (%s)\n", p->threads, PW_OMP_INSTALL_HINT);
            continue;
        }
        pw_omp_set_threads(p->threads);
        arrays x;
        arrays_alloc(&x, n);
        pw_overlap ov = { 0, 0, 0 };
        int got = 0;
        for (int r = 0; r < rounds; r++) {
            /* Turns: STREAM first in even rounds, ours first in odd ones. */
            for (int side = 0; side < 2; side++) {
                if ((side == 0) == (r % 2 == 0)) {
                    double best[STREAM_KERNELS];
                    if (mc_ok && (mc_ok = mccalpin_run(&mc, p->threads, best)))
                        for (int k = 0; k < STREAM_KERNELS; k++) p->mc_gbs[k] = fmax(p->mc_gbs[k], best[k]);
                    continue;
                }
                double sec[STREAM_ALL];
                trial(&x, sec);                               /* not counted, as STREAM's first */
                pw_overlap_mark m = pw_overlap_begin();
                for (int i = 0; i < trials; i++, got++) {
                    trial(&x, sec);
                    for (int k = 0; k < STREAM_ALL; k++) samples[k][got] = sec[k];
                }
                pw_overlap_end(&ov, m);
            }
        }
        if (corrupt >= 0 && corrupt < n) x.a[corrupt] += 1.0;
        char what[64];
        snprintf(what, sizeof what, "n=%ld on %d threads", n, p->threads);
        bool right = arrays_check(&x, what);
        arrays_free(&x);
        if (!right) {
            fprintf(stderr, "%s: the arrays failed STREAM's check after the timed trials: no result is reported\n",
                    common.prog);
            for (int k = 0; k < STREAM_ALL; k++) free(samples[k]);
            free(pts);
            mccalpin_remove(&mc);
            return PW_EXIT_WRONG;
        }
        p->overlap = pw_overlap_share(&ov, p->threads, cores);
        for (int k = 0; k < STREAM_ALL; k++) {
            pw_summarize(samples[k], got, &p->st[k]);
            p->st[k].reps = got;
            p->st[k].inner = 1;
            p->best_gbs[k] = gbs(k, n, p->st[k].min);
            printf("%7d %-9s %10.1f %10.1f %5.1f%%", p->threads, stream_names[k], p->best_gbs[k],
                   gbs(k, n, p->st[k].median), 100 * (p->st[k].q3 - p->st[k].q1) / p->st[k].median);
            if (k < STREAM_KERNELS && p->mc_gbs[k] > 0) {
                double ratio = p->best_gbs[k] / p->mc_gbs[k];
                printf(" %12.1f %11.3f  %s", p->mc_gbs[k], ratio,
                       suspect(p) ? "not judged: our threads took turns"
                       : fabs(ratio - 1) <= TARGET ? "within 5%" : ratio > 1 ? "FASTER by more than 5%" : "SLOWER by more than 5%");
            }
            printf("\n");
        }
        if (pw_overlap_suspect(&ov, p->threads, cores)) {
            char w[64];
            snprintf(w, sizeof w, "stream at %d threads", p->threads);
            pw_overlap_warn(stdout, w, &ov, p->threads, cores);
        }
    }
    mccalpin_remove(&mc);

    /* ---- what this run shows ---- */
    point *one = NULL, *all = NULL;
    for (int i = 0; i < threads.n; i++) {
        if (pts[i].best_gbs[0] <= 0) continue;
        if (pts[i].threads == 1) one = &pts[i];
        if (!all || pts[i].threads > all->threads) all = &pts[i];
    }
    printf("\nWhat this run shows:\n");
    bool cached = n * 8 < 4 * (hw.l2 > 0 ? hw.l2 : 1 << 20);
    if (cached)
        printf("- the arrays fit in the caches (a --tiny run?): these rates are the caches', not the memory's\n");
    point *ref = one ? one : all;
    /* The answers to the README's two predictions start with "answer:". */
    if (ref) {
        double c = ref->best_gbs[STREAM_COPY], t = ref->best_gbs[STREAM_TRIAD];
        printf("answer: %scopy or triad? on %d thread%s triad reached %.1f GB/s and copy %.1f: triad %s by %.0f%%.\n"
               "  Theory: with the write-allocate read, copy moves 24 bytes for the 16 it is credited with, triad 32\n"
               "  for 24, so where the bus is the limit triad shows 12.5%% more; copy has fewer streams to keep going.\n",
               cached ? "not shown on this run (the arrays fit in the caches): " : "", ref->threads,
               ref->threads > 1 ? "s" : "", t, c, t >= c ? "higher" : "lower", 100 * fabs(t / c - 1));
    }
    if (ref)
        printf("- copy is memcpy of each thread's slice, as gcc compiles STREAM's copy; the plain loop (copy_loop)\n"
               "  reached %.1f GB/s against memcpy's %.1f on %d thread%s: who wrote the copy matters (%+.0f%%)\n",
               ref->best_gbs[STREAM_COPY_LOOP], ref->best_gbs[STREAM_COPY], ref->threads, ref->threads > 1 ? "s" : "",
               100 * (ref->best_gbs[STREAM_COPY_LOOP] / ref->best_gbs[STREAM_COPY] - 1));
    if (one && all && all != one) {
        double s = all->best_gbs[STREAM_TRIAD] / one->best_gbs[STREAM_TRIAD];
        bool apart = !isnan(all->overlap) && all->overlap < PW_OVERLAP_SUSPECT;
        printf("answer: %sone core or all? triad on %d threads gave %.2fx its one-thread rate: %s\n",
               apart || cached ? "not shown on this run: " : "", all->threads, s,
               apart ? "but the threads did not run at the same time (see above): this run cannot tell"
                   : cached ? "the arrays fit in the caches, so this is the caches' bandwidth, not the memory's"
                   : s < 1.25 ? "one core nearly saturates the memory; more cores add little"
                              : s > 0.8 * all->threads ? "bandwidth grew with the cores: one core cannot keep enough misses in flight"
                                                        : "more cores help, but less than in proportion: the memory is filling up");
    } else {
        printf("answer: not shown on this run: one core or all? %s\n",
               pw_cores() < 2 ? "this machine has one core" : "the sweep did not run both 1 thread and more (-t)");
    }
    int compared = 0, missed = 0, unjudged = 0;
    for (int i = 0; i < threads.n; i++)
        for (int k = 0; k < STREAM_KERNELS; k++) {
            if (pts[i].mc_gbs[k] <= 0) continue;
            if (suspect(&pts[i])) { unjudged++; continue; }
            compared++;
            double ratio = pts[i].best_gbs[k] / pts[i].mc_gbs[k];
            if (fabs(ratio - 1) > TARGET) {
                if (!missed++) printf("- the 5%% target (ours within 5%% of McCalpin's STREAM, both ways) MISSED at:");
                printf(" %s/%d threads %.3f", stream_names[k], pts[i].threads, ratio);
            }
        }
    if (missed) printf(" (ours/STREAM)\n");
    else if (compared) printf("- the 5%% target (ours within 5%% of McCalpin's STREAM, both ways): holds on all %d comparisons\n", compared);
    else if (!unjudged) printf("- no comparison with McCalpin's STREAM in this run (STREAM_SRC not given or not built)\n");
    if (unjudged)
        printf("- %d comparison%s with McCalpin's STREAM not judged: our threads did not run at the same time there\n",
               unjudged, unjudged > 1 ? "s" : "");

    /* ---- the CSV, once everything checked ---- */
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "array_bytes", "%ld", n * 8);
    pw_csv_meta(csv, "llc_bytes", "%ld", llc);
    pw_csv_meta(csv, "trials", "%d", per);
    pw_csv_meta(csv, "mccalpin", "%s", compared || unjudged ? "yes" : "no");
    char omp[320];
    pw_csv_meta(csv, "openmp", "%s", pw_omp_describe(omp, sizeof omp));
    for (int i = 0; i < threads.n; i++) {
        point *p = &pts[i];
        if (p->best_gbs[0] <= 0) continue;
        for (int k = 0; k < STREAM_ALL; k++) {
            double flops = (double)stream_flops[k] * (double)n, bytes = stream_bytes(k, n);
            pw_csv_summary_overlap(csv, stream_names[k], n, p->threads, "ours", &p->st[k], flops, bytes, p->overlap);
            pw_csv_quantity(csv, stream_names[k], n, p->threads, "best_gbs", p->best_gbs[k]);
            if (k < STREAM_KERNELS && p->mc_gbs[k] > 0) {
                pw_csv_quantity(csv, stream_names[k], n, p->threads, "mccalpin_best_gbs", p->mc_gbs[k]);
                pw_csv_quantity(csv, stream_names[k], n, p->threads, "ratio", p->best_gbs[k] / p->mc_gbs[k]);
            }
        }
    }
    for (int k = 0; k < STREAM_ALL; k++) free(samples[k]);
    free(pts);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
