/* exercises/04-openmp/check_reduction.c: the checker of exercise 4.1.
 *
 * Built with your exercises/04-openmp/reduction.c by `make ex-4.1`, or with
 * solutions/04-openmp/reduction.c by `make solution-4.1`. What it tries:
 * sum_and_max() on n = 1, 2, 3, 17, 1001, 65537 and 1000003, with whole
 * numbers between -1000 and 1000 (every partial sum is then an exact double,
 * so any order of adding gives the same sum: the tolerance is zero), with
 * the max at the last element, and with all-negative data; each on 1, 2, 3
 * and 7 threads (7 on a 2-core laptop: more threads than cores, which is
 * when a race shows most). Built without OpenMP it grades on one thread.
 *
 * Right numbers are not enough, and the rest is checked without timing
 * (a shared machine's timings would make the verdict a matter of luck):
 *   - the pragmas of your file, as the compiler reads them (the build writes
 *     it through cc -E: the rule `preprocess`): a parallel loop, with a
 *     reduction clause for the sum (+) and one for the max. A serial loop
 *     is right; so is one whose threads add under `omp atomic` or `omp
 *     critical`, once per element (1000003 turns at one shared variable for
 *     the largest n), or share the max unguarded and win by luck (a race
 *     that passed 10 of 11 runs): the reduction clause is the exercise;
 *   - the threads the process had right after each call on 7 threads (Linux:
 *     /proc/self/task; the OpenMP runtime keeps a team's threads in a pool
 *     for the next region), against the threads right after a region of 7
 *     of the checker's own, run last: a loop run on fewer (a num_threads()
 *     or if() clause, an `omp for` outside any parallel region) fails.
 * Each failure is explained, starting "FAIL:". The last line is "PASS: ..."
 * and the exit status 0, or the status is 1.
 */
#define _POSIX_C_SOURCE 200809L
#include "exercise.h"
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp_info.h"
#include "reduction.h"
#include "util.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- what the pragmas of the learner's file ask for ---------------------- */

typedef struct {
    int lines;                 /* #pragma omp lines in the file */
    bool loop;                 /* one of them is a `for` (parallel for, or for) */
    bool parallel;             /* one of them starts a parallel region */
    bool sum, max;             /* a reduction(+ or -: ...) clause, a reduction(max: ...) */
    bool atomic, critical;
    char first[512];           /* the first `for` pragma, for the explanation */
} pragmas;

/* Whether a line marker of the preprocessor's output (# 12 "dir/file.c" ...)
 * names the learner's file: compared by the last path component, as the
 * compiler may spell the folder differently (as in check_schedule.c). */
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

static bool has_word(const char *p, const char *w)
{
    size_t len = strlen(w);
    for (const char *c = strstr(p, w); c; c = strstr(c + 1, w)) {
        bool before = c == p || !(isalnum((unsigned char)c[-1]) || c[-1] == '_');
        bool after = !(isalnum((unsigned char)c[len]) || c[len] == '_');
        if (before && after) return true;
    }
    return false;
}

/* The operators of the reduction clauses of one pragma line. */
static void read_reductions(const char *p, pragmas *g)
{
    for (const char *c = strstr(p, "reduction"); c; c = strstr(c + 9, "reduction")) {
        const char *q = c + 9;
        while (isspace((unsigned char)*q)) q++;
        if (*q != '(') continue;
        const char *colon = strchr(q, ':'), *close = strchr(q, ')');
        if (!colon || (close && close < colon)) continue;
        const char *op = q + 1;   /* after a modifier (inscan, task, default) and its comma */
        for (const char *k = op; k < colon; k++)
            if (*k == ',') op = k + 1;
        while (op < colon && isspace((unsigned char)*op)) op++;
        const char *end = colon;
        while (end > op && isspace((unsigned char)end[-1])) end--;
        size_t len = (size_t)(end - op);
        if ((len == 1 && (*op == '+' || *op == '-'))) g->sum = true;
        if (len == 3 && !strncmp(op, "max", 3)) g->max = true;
    }
}

/* The `#pragma omp` lines of the learner's file as the compiler reads them
 * (the preprocessor's output: a pragma inside #if 0 is gone, one continued
 * over a backslash is one line). 0, or 1 if the file cannot be read. */
static int read_pragmas(pragmas *g)
{
    memset(g, 0, sizeof *g);
    const char *path = pw_ex_this.preprocessed, *file = pw_ex_this.file ? pw_ex_this.file : "reduction.c";
    if (!path) {
        printf("FAIL: the build did not write %s through the preprocessor (the rule `preprocess` in\n"
               "  check_reduction.rules): rebuild with make ex-4.1\n", file);
        return 1;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("FAIL: cannot open %s to read your pragmas (run the checker from the workbook's folder: make ex-4.1)\n",
               path);
        return 1;
    }
    char line[4096];
    bool mine = false;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (isspace((unsigned char)*p)) p++;
        if (p[0] == '#' && (isspace((unsigned char)p[1]) || !strncmp(p + 1, "line", 4))) {
            mine = marks_file(p, file);
            continue;
        }
        if (!mine || strncmp(p, "#pragma", 7)) continue;
        p += 7;
        while (isspace((unsigned char)*p)) p++;
        if (strncmp(p, "omp", 3) || !has_word(p, "omp")) continue;   /* #pragma omp ..., not #pragma ompx */
        g->lines++;
        if (has_word(p, "for") && !g->loop) {
            g->loop = true;
            snprintf(g->first, sizeof g->first, "#pragma %s", p);
            g->first[strcspn(g->first, "\n")] = 0;
        }
        if (has_word(p, "parallel")) g->parallel = true;
        if (has_word(p, "atomic")) g->atomic = true;
        if (has_word(p, "critical")) g->critical = true;
        read_reductions(p, g);
    }
    fclose(f);
    return 0;
}

/* The verdict on the pragmas: 0, or 1 after a FAIL line. early: before the
 * cases, where only a missing reduction with `omp atomic` or `omp critical`
 * in its place is told (those threads take 1000003 turns at a lock for the
 * largest n: 7 s of the checker's time under ThreadSanitizer on 2 busy
 * cores, for a verdict the file already gives); a loop with neither runs the
 * cases first, so that a race shows as what it does to the sum. */
static int check_pragmas(bool early)
{
    pragmas g;
    if (read_pragmas(&g)) return 1;
    if (early && (!g.loop || (g.sum && g.max) || !(g.atomic || g.critical))) return 0;
    const char *file = pw_ex_this.file ? pw_ex_this.file : "reduction.c";
    if (!g.loop) {
        printf("FAIL: no `#pragma omp parallel for` in %s as the compiler reads it: the loop runs on one thread\n"
               "  (%d omp pragma%s in the file) right numbers, but the exercise is the parallel loop and its\n"
               "  reduction clauses\n", file, g.lines, g.lines == 1 ? "" : "s");
        return 1;
    }
    printf("  your loop's pragma, as the compiler reads it: %s\n", g.first);
    const char *turns = g.atomic && g.critical ? "`omp atomic` and `omp critical`" : g.atomic ? "`omp atomic`" : "`omp critical`";
    if (!g.sum || !g.max) {
        const char *what = !g.sum ? "reduction(+: ...) clause for the sum" : "reduction(max: ...) clause for the max";
        if (g.atomic || g.critical)
            printf("FAIL: no %s: with %s the threads take turns at one shared variable, "
                   "once per element\n"
                   "  (1000003 turns for the largest n): right, but no faster than one thread. A reduction gives\n"
                   "  each thread its own copy and combines the copies once, at the end\n", what, turns);
        else
            printf("FAIL: no %s: the threads update one shared variable with nothing to order them\n"
                   "  a data race: the results above were right by luck of the timing. A reduction gives each\n"
                   "  thread its own copy and combines the copies once, at the end\n", what);
        printf("  the clauses: reduction(+:s) reduction(max:m), on the `#pragma omp parallel for`\n");
        return 1;
    }
    return 0;
}

/* ---- the team the loop ran on -------------------------------------------- */

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

/* ---- the cases ------------------------------------------------------------ */

typedef struct {
    const char *name;
    float lo, hi;        /* whole numbers in [lo, hi] */
    bool max_last;       /* put the largest value at x[n-1] */
} dataset;

static void fill(float *x, long n, const dataset *d, uint64_t seed)
{
    pw_fill_random(x, (size_t)n, seed, 0.0f, 1.0f);
    for (long i = 0; i < n; i++) x[i] = floorf(d->lo + x[i] * (d->hi - d->lo + 1));
    if (d->max_last) x[n - 1] = d->hi + 1;
}

/* The sum of thread t's block under schedule(static) on T threads: what a
 * race that lets one thread's partial sum win would leave. */
static bool one_share(const float *x, long n, int T, double got)
{
    long q = n / T, r = n % T, start = 0;
    for (int t = 0; t < T; t++) {
        long len = q + (t < r);
        double s = 0;
        for (long i = start; i < start + len; i++) s += x[i];
        if (s == got) return true;
        start += len;
    }
    return false;
}

static int check_one(const float *x, long n, int T, const dataset *d)
{
    double want_sum = 0;
    float want_max = x[0];
    for (long i = 0; i < n; i++) {
        want_sum += x[i];
        if (x[i] > want_max) want_max = x[i];
    }
    double sum = NAN;
    float max = NAN;
    pw_omp_set_threads(T);
    sum_and_max(x, n, &sum, &max);
    if (sum != want_sum) {
        printf("wrong\nFAIL: sum of %ld %s on %d thread%s should be %.0f, got %.17g\n", n, d->name, T,
               T > 1 ? "s" : "", want_sum, sum);
        if (isnan(sum)) printf("  sum_and_max() did not set *sum\n");
        else if (fabs(want_sum) > 16777216.0 && fabs(sum - want_sum) <= 1e-5 * fabs(want_sum))
            printf("  off by %.0f in %.0f: rounding, not a lost element. A float holds whole numbers exactly only up\n"
                   "  to 2^24 = 16777216, and this sum is larger: accumulate in double (double s = 0)\n",
                   fabs(sum - want_sum), fabs(want_sum));
        else if (T > 1 && one_share(x, n, T, sum))
            printf("  that is one thread's share of the loop: the threads shared one sum and the last to\n"
                   "  write it won. Add reduction(+:s) to the pragma, so each has its own\n");
        else if (T > 1)
            printf("  right on one thread, wrong on %d: a race on the sum? add reduction(+:s)\n", T);
        else printf("  on one thread: is every x[i] added once, i from 0 to n-1?\n");
        return 1;
    }
    if (max != want_max) {
        printf("wrong\nFAIL: max of %ld %s on %d thread%s should be %g, got %g\n", n, d->name, T, T > 1 ? "s" : "",
               want_max, max);
        if (isnan(max)) printf("  sum_and_max() did not set *max\n");
        else if (max == 0 && want_max < 0)
            printf("  every value is negative: start the max at x[0] (or -INFINITY), not at 0\n");
        else if (T > 1)
            printf("  right on one thread, wrong on %d: add reduction(max:m) to the pragma\n", T);
        else printf("  compare every x[i], up to and including x[n-1]\n");
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    static const long sizes[] = { 1, 2, 3, 17, 1001, 65537, 1000003 };
    static const int threads[] = { 1, 2, 3, 7 };
    static const dataset sets[] = {
        { "whole numbers in [-1000, 1000]", -1000, 1000, false },
        { "numbers whose max is the last", -1000, 1000, true },
        { "negative numbers", -1000, -1, false },
    };
    int nthreads = pw_omp_enabled() ? 4 : 1;
    printf("exercise 4.1: sum_and_max() against a sequential loop\n");
    if (!pw_omp_enabled()) printf("(built without OpenMP: graded on one thread; get it: %s)\n", PW_OMP_INSTALL_HINT);
    if (check_pragmas(true)) {
        printf("exercise 4.1 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    float *x = pw_alloc_floats(1000003);
    /* The threads before any parallel region, and the most right after a
     * call on 7 threads (the runtime's pool keeps a team's threads). */
    int base_threads = process_threads(), most_threads = base_threads;   /* -1: not on Linux */
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            long n = sizes[k];
            fill(x, n, &sets[s], 17 + k);
            printf("  n = %-8ld %-32s threads", n, sets[s].name);
            for (int t = 0; t < nthreads; t++) {
                printf(" %d", threads[t]);
                if (check_one(x, n, threads[t], &sets[s])) {
                    printf("exercise 4.1 is not right yet: start with the FAIL above\n");
                    pw_free(x);
                    return PW_EXIT_WRONG;
                }
                int now = threads[t] == 7 ? process_threads() : -1;
                if (now > most_threads) most_threads = now;
            }
            printf("  ok\n");
        }
    }
    pw_free(x);
    if (check_pragmas(false)) {
        printf("exercise 4.1 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    if (pw_omp_enabled() && base_threads > 0) {
        /* The checker's own region of 7, right after: its team reuses the
         * runtime's pool, so the threads then, minus those after your calls,
         * are the threads your team lacked. (Counting from the threads before
         * any region instead would count ThreadSanitizer's own, which it
         * starts with the first thread.) */
        int team = team_for(7), after = process_threads();
        int seen = team - (after - most_threads);
        printf("  threads: asked for 7, your loop's team had %s%d (a region of 7 gets %d here)\n",
               seen >= team ? "at least " : "at most ", seen < team ? seen : team, team);
        if (seen < team) {
            if (seen <= 1)
                printf("FAIL: asked for 7 threads, sum_and_max() ran on one: no thread but the main one ever existed\n"
                       "  is the pragma `#pragma omp parallel for`? An `omp for` outside a parallel region, or an\n"
                       "  if() or num_threads(1) clause, runs the loop on the calling thread alone\n");
            else
                printf("FAIL: asked for 7 threads, sum_and_max() ran on at most %d: a num_threads() clause overrides "
                       "omp_set_num_threads()\n"
                       "  which the checker calls before each call: leave the count to the caller\n", seen);
            printf("exercise 4.1 is not right yet: start with the FAIL above\n");
            return PW_EXIT_WRONG;
        }
    } else if (pw_omp_enabled()) {
        printf("  (no /proc/self/task here: the check that your loop ran on the threads asked for was skipped)\n");
    }
    return pw_ex_pass("sum_and_max() gives the exact sum and the max on n = 1 to 1000003, on %s",
           pw_omp_enabled() ? "1, 2, 3 and 7 threads" : "one thread (no OpenMP)");
}
