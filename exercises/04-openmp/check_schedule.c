/* exercises/04-openmp/check_schedule.c: the checker of exercise 4.2.
 *
 * Built with your exercises/04-openmp/schedule.c by `make ex-4.2`, or with
 * solutions/04-openmp/schedule.c by `make solution-4.2`. Three steps:
 *   1. correct: process_items() on 1, 2, 3 and 7 threads (one without
 *      OpenMP), every out[i] against sched_item_work(i) (integers: exact);
 *   2. the model: the schedule clause is read from your pragma as the
 *      compiler reads it (the build writes your file through cc -E), and the
 *      time of the loop on T = 2, 3 and 7 threads is worked out from the
 *      item costs for it and for 11 other schedules: static blocks as
 *      libgomp cuts them; dynamic and guided blocks go to whichever thread
 *      is free first, each grab costing GRAB_UNITS. Your choice passes if
 *      it is within 10% of the best on every T. The model, not a timing,
 *      decides: a laptop's timings are too noisy to grade on;
 *   3. the measurement: your loop against schedule(static) on as many
 *      threads as cores, printed (not graded): the number to quote.
 * In step 1 it also checks, without timing, that the loop ran on the
 * threads asked for: the threads the process had right after the call on 7
 * (Linux: /proc/self/task; the OpenMP runtime keeps a team's threads in a
 * pool for the next region) against those right after a region of 7 of the
 * checker's own, run after all of yours. A loop run on fewer (an `omp for`
 * with no parallel region around it, a num_threads() or if() clause) fails:
 * its out[] is right, and the model would grade a schedule that never ran
 * on more than one thread. And out[] has GUARD elements past its end, set
 * to a pattern: a loop that writes out[n] (i <= n) fails, not only when the
 * write happens to crash.
 * Each failure is explained, starting "FAIL:". The last line is "PASS: ..."
 * and the exit status 0, or the status is 1.
 */
#define _POSIX_C_SOURCE 200809L
#include "exercise.h"
#include <ctype.h>
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "omp_info.h"
#include "schedule.h"
#include "timing.h"
#include "util.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* A grab from the shared counter (an atomic add on a contended cache line):
 * about 50 ns on 2 cores, some 2 units. */
#define GRAB_UNITS 2.0
#define SLACK 1.10

enum { K_STATIC, K_DYNAMIC, K_GUIDED };
typedef struct {
    int kind;
    int chunk;      /* 0: none given */
} sched;

static const char *kind_name[] = { "static", "dynamic", "guided" };

static void sched_str(sched s, char *buf, size_t len)
{
    if (s.chunk) snprintf(buf, len, "%s,%d", kind_name[s.kind], s.chunk);
    else snprintf(buf, len, "%s", kind_name[s.kind]);
}

/* The modelled time of the loop on T threads, in units. */
static double model(sched s, int n, int T)
{
    double busy[PW_MAX_LIST * 2] = { 0 };
    if (s.kind == K_STATIC && s.chunk == 0) {
        /* libgomp: n/T each, the first n%T threads one more */
        int q = n / T, r = n % T, i = 0;
        for (int t = 0; t < T; t++)
            for (int k = 0; k < q + (t < r); k++) busy[t] += sched_item_cost(i++, n);
    } else if (s.kind == K_STATIC) {
        for (int c = 0; c * s.chunk < n; c++)
            for (int i = c * s.chunk; i < n && i < (c + 1) * s.chunk; i++) busy[c % T] += sched_item_cost(i, n);
    } else {
        int chunk = s.chunk ? s.chunk : 1, i = 0;
        while (i < n) {
            int size = chunk;
            if (s.kind == K_GUIDED) {
                int g = (n - i + T - 1) / T;
                if (g > size) size = g;
            }
            int t = 0;   /* the thread free first takes the next block */
            for (int u = 1; u < T; u++)
                if (busy[u] < busy[t]) t = u;
            busy[t] += GRAB_UNITS;
            for (int k = 0; k < size && i < n; k++) busy[t] += sched_item_cost(i++, n);
        }
    }
    double mx = 0;
    for (int t = 0; t < T; t++)
        if (busy[t] > mx) mx = busy[t];
    return mx;
}

/* The clause of one `#pragma omp ... for` line: 0, or 1 after a FAIL line. */
static int parse_clause(const char *p, sched *s)
{
    s->kind = K_STATIC;
    s->chunk = 0;
    const char *c = strstr(p, "schedule");
    while (c && c[8] && c[8] != '(' && !isspace((unsigned char)c[8])) c = strstr(c + 8, "schedule");
    if (c) {
        c += 8;
        while (isspace((unsigned char)*c)) c++;
        if (*c != '(') c = NULL;
        else c++;
    }
    if (!c) {
        printf("  your pragma has no schedule clause: libgomp then uses schedule(static)\n");
        return 0;
    }
    const char *colon = strchr(c, ':'), *close = strchr(c, ')');
    if (colon && close && colon < close) c = colon + 1;   /* a modifier such as nonmonotonic: */
    while (isspace((unsigned char)*c)) c++;
    if (!strncmp(c, "static", 6)) s->kind = K_STATIC;
    else if (!strncmp(c, "dynamic", 7)) s->kind = K_DYNAMIC;
    else if (!strncmp(c, "guided", 6)) s->kind = K_GUIDED;
    else {
        printf("FAIL: the schedule in your pragma is not static, dynamic or guided: pick one of those "
               "(runtime and auto leave the choice to someone else)\n");
        return 1;
    }
    const char *comma = strchr(c, ',');
    if (comma && close && comma < close) {
        char *end;
        long k = strtol(comma + 1, &end, 10);
        while (isspace((unsigned char)*end)) end++;
        if (end == comma + 1 || *end != ')' || k < 1 || k > SCHED_ITEMS) {
            printf("FAIL: write the chunk in schedule(...) as a plain number from 1 to %d, so the checker "
                   "can read it\n", SCHED_ITEMS);
            return 1;
        }
        s->chunk = (int)k;
    }
    return 0;
}

/* Whether a line marker of the preprocessor's output (# 12 "dir/file.c" ...)
 * names the learner's file: compared by the last path component, as the
 * compiler may spell the folder differently. */
static bool marks_file(const char *line, const char *file)
{
    const char *q = strchr(line, '"');
    if (!q) return false;
    const char *end = strchr(q + 1, '"');
    if (!end) return false;
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t len = strlen(base);
    return (size_t)(end - (q + 1)) >= len && !strncmp(end - len, base, len) &&
           (end - len == q + 1 || end[-(ptrdiff_t)len - 1] == '/');
}

/* The schedule clause of the `#pragma omp ... for` in the learner's file,
 * read as the compiler reads it: the preprocessor's output (cc -E, which the
 * build writes), so a pragma continued over a backslash is one line and one
 * inside #if 0 is gone. Only lines from the learner's file count (not its
 * headers), and there must be exactly one such pragma: the checker grades
 * one loop. */
static int read_pragma(sched *s)
{
    const char *path = pw_ex_this.preprocessed ? pw_ex_this.preprocessed : schedule_source();
    const char *file = pw_ex_this.file ? pw_ex_this.file : schedule_source();
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("FAIL: cannot open %s to read your pragma (run the checker from the workbook's folder: make ex-4.2)\n",
               path);
        return 1;
    }
    bool preprocessed = pw_ex_this.preprocessed != NULL, mine = !preprocessed;
    char line[4096], first[4096] = "";
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (isspace((unsigned char)*p)) p++;
        if (preprocessed && p[0] == '#' && (isspace((unsigned char)p[1]) || !strncmp(p + 1, "line", 4))) {
            mine = marks_file(p, file);
            continue;
        }
        if (!mine || strncmp(p, "#pragma", 7)) continue;
        if (!strstr(p, "omp") || !strstr(p, " for")) continue;
        if (found++ == 0) snprintf(first, sizeof first, "%s", p);
    }
    fclose(f);
    if (!found) {
        printf("FAIL: no `#pragma omp parallel for` in %s as the compiler reads it: the loop must have one\n", file);
        return 1;
    }
    if (found > 1) {
        printf("FAIL: %d `#pragma omp ... for` lines in %s as the compiler reads it: keep one, on the loop of\n"
               "  process_items(), so that the schedule the checker grades is the one that runs\n", found, file);
        return 1;
    }
    first[strcspn(first, "\n")] = 0;
    printf("  your pragma, as the compiler reads it: %s\n", first);
    return parse_clause(first, s);
}

/* The threads of this process now (Linux: /proc/self/task), or -1. */
static int process_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* How many threads a parallel region asked for T gets here (OMP_THREAD_LIMIT
 * or OMP_DYNAMIC may give fewer): run only after every call of the
 * learner's, as its threads stay in the runtime's pool. */
static int team_for(int T)
{
    int got = 1;
#ifdef _OPENMP
#pragma omp parallel num_threads(T)
    {
#pragma omp single
        got = omp_get_num_threads();
    }
#else
    (void)T;
#endif
    return got;
}

/* The checker's own schedule(static) loop, for the measurement. */
static void process_static(int n, uint64_t *out)
{
    #pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) out[i] = sched_item_work(i, n);
}

typedef struct {
    void (*fn)(int, uint64_t *);
    uint64_t *out;
} run_ctx;
static void run(void *p) { run_ctx *c = p; c->fn(SCHED_ITEMS, c->out); }

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    const int n = SCHED_ITEMS;
    enum { GUARD = 8 };   /* elements past out[n - 1], set to CANARY: a write past the end shows */
    const uint64_t CANARY = 0x5afec0de5afec0deull;
    uint64_t *out = pw_alloc_bytes((n + GUARD) * sizeof *out), *want = pw_alloc_bytes(n * sizeof *want);
    for (int i = 0; i < n; i++) want[i] = sched_item_work(i, n);

    printf("exercise 4.2: process_items() with the schedule you chose\n");
    if (!pw_omp_enabled()) printf("(built without OpenMP: run on one thread; the model still grades; get it: %s)\n",
                                  PW_OMP_INSTALL_HINT);
    /* 1. correct on every thread count */
    static const int threads[] = { 1, 2, 3, 7 };
    int most_threads = -1;   /* the process's threads right after the call on 7 */
    for (int t = 0; t < (pw_omp_enabled() ? 4 : 1); t++) {
        printf("  %d thread%s: ", threads[t], threads[t] > 1 ? "s" : "");
        memset(out, 0, n * sizeof *out);
        for (int g = 0; g < GUARD; g++) out[n + g] = CANARY;
        pw_omp_set_threads(threads[t]);
        process_items(n, out);
        if (threads[t] == 7) most_threads = process_threads();
        for (int g = 0; g < GUARD; g++) {
            if (out[n + g] != CANARY) {
                printf("wrong\nFAIL: process_items() wrote out[%d], past the end of the %d items (out[0] to out[%d]): "
                       "does the loop stop at i < n?\n", n + g, n, n - 1);
                return PW_EXIT_WRONG;
            }
        }
        for (int i = 0; i < n; i++) {
            if (out[i] != want[i]) {
                printf("wrong\nFAIL: out[%d] is wrong on %d threads%s\n", i, threads[t],
                       out[i] == 0 ? ": it was never written (does the loop run i from 0 to n-1?)"
                                   : ": is it sched_item_work(i, n)?");
                return PW_EXIT_WRONG;
            }
        }
        printf("ok\n");
    }
    if (pw_omp_enabled() && most_threads > 0) {
        /* The checker's own region of 7: its team reuses the runtime's pool,
         * so the threads then, minus those after your call on 7, are the
         * threads your team lacked (counted this way, ThreadSanitizer's own
         * thread, which it starts with the first, is on both sides). */
        int team = team_for(7), after = process_threads();
        int seen = team - (after - most_threads);
        printf("  threads: asked for 7, your loop's team had %s%d (a region of 7 gets %d here)\n",
               seen >= team ? "at least " : "at most ", seen < team ? seen : team, team);
        if (seen < team) {
            if (seen <= 1)
                printf("FAIL: asked for 7 threads, process_items() ran on one: no thread but the main one ever existed\n"
                       "  is the pragma `#pragma omp parallel for`? An `omp for` outside a parallel region, or an\n"
                       "  if() or num_threads(1) clause, runs the loop on the calling thread alone, whatever its schedule\n");
            else
                printf("FAIL: asked for 7 threads, process_items() ran on at most %d: a num_threads() clause overrides "
                       "omp_set_num_threads()\n"
                       "  which the checker calls before each call: leave the count to the caller\n", seen);
            return PW_EXIT_WRONG;
        }
    } else if (pw_omp_enabled()) {
        printf("  (no /proc/self/task here: the check that your loop ran on the threads asked for was skipped)\n");
    }

    /* 2. the model */
    sched mine;
    if (read_pragma(&mine)) return PW_EXIT_WRONG;
    char mine_s[32];
    sched_str(mine, mine_s, sizeof mine_s);
    static const sched others[] = { { K_STATIC, 0 }, { K_STATIC, 1 }, { K_STATIC, 4 }, { K_STATIC, 64 },
                                    { K_DYNAMIC, 1 }, { K_DYNAMIC, 4 }, { K_DYNAMIC, 16 }, { K_DYNAMIC, 64 },
                                    { K_DYNAMIC, 512 }, { K_GUIDED, 0 }, { K_GUIDED, 16 } };
    const int nothers = (int)(sizeof others / sizeof others[0]);
    static const int Ts[] = { 2, 3, 7 };
    double total = 0;
    for (int i = 0; i < n; i++) total += sched_item_cost(i, n);
    printf("\nthe model: efficiency = (all the work / T) / the slowest thread's work (incl. %.0f units a grab)\n",
           GRAB_UNITS);
    printf("%-14s %8s %8s %8s\n", "schedule", "T = 2", "T = 3", "T = 7");
    double best[3] = { 0, 0, 0 };
    for (int k = 0; k <= nothers; k++) {
        sched s = k < nothers ? others[k] : mine;
        char name[32];
        sched_str(s, name, sizeof name);
        printf("%-14s", k < nothers ? name : "yours");
        for (int j = 0; j < 3; j++) {
            double eff = total / Ts[j] / model(s, n, Ts[j]);
            if (k < nothers && eff > best[j]) best[j] = eff;
            printf(" %7.1f%%", 100 * eff);
        }
        printf("%s\n", k < nothers ? "" : "");
    }
    printf("(yours: %s)\n", mine_s);
    for (int j = 0; j < 3; j++) {
        double eff = total / Ts[j] / model(mine, n, Ts[j]);
        if (eff * SLACK < best[j]) {
            printf("FAIL: schedule(%s) on %d threads reaches %.0f%% of ideal where the best reaches %.0f%%: ",
                   mine_s, Ts[j], 100 * eff, 100 * best[j]);
            if (mine.kind == K_STATIC && mine.chunk == 0)
                printf("one block per thread, and the first thread's holds the heavy start\n");
            else if (mine.kind == K_GUIDED)
                printf("guided's first block is about n/T items, and it holds the heavy start\n");
            else if (mine.kind == K_STATIC && mine.chunk % 2 == 1 && Ts[j] % 2 == 0)
                printf("odd blocks dealt to an even number of threads: the heavy even items pile up on some\n");
            else if (mine.chunk > n / (4 * Ts[j]))
                printf("blocks this large are too few to even out the end of the loop\n");
            else
                printf("too many grabs? each one costs time on the shared counter\n");
            return PW_EXIT_WRONG;
        }
    }

    /* 3. the measurement (not graded) */
    if (pw_omp_enabled()) {
        int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
        pw_omp_set_threads(cores);
        pw_bench_config cfg = pw_bench_defaults();
        pw_bench_stats yours, stat;
        run_ctx a = { process_items, out }, b = { process_static, out };
        pw_bench(&cfg, run, &a, &yours);
        pw_bench(&cfg, run, &b, &stat);
        printf("\nmeasured on %d threads (median): yours %.3f ms, schedule(static) %.3f ms (%.2fx yours)\n", cores,
               yours.median * 1e3, stat.median * 1e3, stat.median / yours.median);
    }
    pw_free(out);
    pw_free(want);
    return pw_ex_pass("schedule(%s) is correct on every thread count and within %.0f%% of the best schedule "
           "on 2, 3 and 7 threads", mine_s, 100 * (SLACK - 1));
}
