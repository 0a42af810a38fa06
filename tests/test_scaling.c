/* tests/test_scaling.c: the sweep report computes speedup, efficiency and
 * Karp-Flatt, fits p to the points that ran in parallel, and records them. */
#define _POSIX_C_SOURCE 200809L
#include "models.h"
#include "scaling.h"
#include "unit.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pw_scaling_point point(int threads, double median)
{
    pw_scaling_point p = { .threads = threads };
    p.st.reps = 1;
    p.st.median = p.st.min = p.st.max = p.st.q1 = p.st.q3 = p.st.mean = median;
    return p;
}

static void test_report_and_fit(void)
{
    /* Amdahl with p = 0.9 on 1, 2, 4 cores, then 8 threads on 4 cores that
     * gain nothing more (oversubscribed): the fit must ignore that point. */
    pw_scaling_point pts[] = { point(1, 1.0), point(2, 1 / pw_amdahl(0.9, 2)), point(4, 1 / pw_amdahl(0.9, 4)),
                               point(8, 1 / pw_amdahl(0.9, 4)) };
    char path[64];
    snprintf(path, sizeof path, "/tmp/pw_test_scaling_%ld.csv", (long)getpid());
    char *argv[] = { "sweep", NULL };
    pw_csv *csv = pw_csv_open(path, 1, argv);
    /* The table is for people; the numbers are checked here. */
    fflush(stdout);
    int saved = dup(1), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    pw_scaling_fit fit = pw_scaling_report(csv, "work", 100, "", 1.0, pts, 4, 1e9, 0, 4);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(null);
    pw_csv_close(csv);

    EXPECT(fabs(fit.p - 0.9) < 1e-9, "p fitted from the 1..4 core points is 0.9, got %.6f", fit.p);
    EXPECT(fabs(fit.speedup[2] - pw_amdahl(0.9, 4)) < 1e-12, "speedup at 4 is Amdahl's %.4f", fit.speedup[2]);
    EXPECT(fabs(fit.efficiency[1] - pw_amdahl(0.9, 2) / 2) < 1e-12, "efficiency = speedup / N");
    EXPECT(isnan(fit.karp_flatt[0]) && fabs(fit.karp_flatt[1] - 0.1) < 1e-9 && fabs(fit.karp_flatt[2] - 0.1) < 1e-9,
           "Karp-Flatt is the serial fraction 0.1 at N = 2 and 4");
    EXPECT(fabs(fit.karp_flatt[3] - 0.1) < 1e-9,
           "8 threads on 4 cores are 4 processors: e with N = 4 is the same 0.1 (%.3f), not 0.55 with N = 8",
           fit.karp_flatt[3]);
    EXPECT(fit.suspect == 0 && fit.fitted == 2 && isnan(fit.overlap[1]), "no overlap measured: nothing suspect, 2 fitted");

    FILE *f = fopen(path, "r");
    char line[512];
    int rows = 0, meta = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "sweep,work,summary,", 19)) rows++;
        if (!strncmp(line, "# amdahl_work: p=0.900000 ", 26) && strstr(line, "cores=4") &&
            strstr(line, "karp_flatt=2:0.100,4:0.100,8:0.100 suspect=none"))
            meta++;
    }
    if (f) fclose(f);
    unlink(path);
    EXPECT(rows == 4, "one summary row per point, got %d", rows);
    EXPECT(meta == 1, "the fit is recorded as '# amdahl_work: p=... cores=... karp_flatt=...'");
}

/* Run pw_default_threads in a child with THREADS set; returns the exit status
 * and the list it produced (through a pipe). */
static int threads_from_env(const char *value, pw_list *out)
{
    int fd[2];
    if (pipe(fd)) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        if (value) setenv("THREADS", value, 1); else unsetenv("THREADS");
        if (!freopen("/dev/null", "w", stderr)) _exit(3);
        pw_list l;
        pw_default_threads(&l, "prog");
        if (write(fd[1], &l, sizeof l) != (ssize_t)sizeof l) _exit(4);
        _exit(0);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], out, sizeof *out);
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    if (got != (ssize_t)sizeof *out) out->n = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_default_threads(void)
{
    pw_list l;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    EXPECT(threads_from_env(NULL, &l) == 0, "no THREADS: the default");
    EXPECT(l.n >= 2 && l.v[0] == 1 && l.v[l.n - 1] == 2 * cores && l.v[l.n - 2] == cores,
           "1 ... cores, then 2x cores oversubscribed (n=%d, last %lld)", l.n, l.n ? l.v[l.n - 1] : 0);
    EXPECT(threads_from_env("1,3,5", &l) == 0 && l.n == 3 && l.v[1] == 3, "THREADS=1,3,5 is taken as given");
    EXPECT(threads_from_env("0", &l) == 2, "THREADS=0 is a usage error");
    EXPECT(threads_from_env("1000000", &l) == 2, "THREADS=1000000 is a usage error");
    EXPECT(threads_from_env("two", &l) == 2, "THREADS=two is a usage error");
}

/* The report's words, captured: stdout into a file for one call. */
static pw_scaling_fit report_words(char *out, size_t len, const pw_scaling_point *pts, int count, int cores,
                                   const pw_overlap *ov)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/pw_test_scaling_out_%ld", (long)getpid());
    fflush(stdout);
    int saved = dup(1), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 1);
    pw_scaling_fit fit = pw_scaling_report_overlap(NULL, "work", 100, "", 1.0, pts, count, 0, 0, cores, ov);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(out, 1, len - 1, f) : 0;
    out[n] = '\0';
    if (f) fclose(f);
    unlink(path);
    return fit;
}

static void test_suspect_points(void)
{
    char out[4096];
    /* The run: 2 threads on 2 cores at 0.99x, their threads together
     * 5% of the time. The point is suspect, left out of the fit, and no
     * ceiling is printed; e > 1 is said in words. */
    pw_scaling_point pts[] = { point(1, 1.0), point(2, 1 / 0.99), point(4, 1 / 0.98) };
    pw_overlap ov[] = { { 1, 1, 1 }, { 1, 1.05, 1 }, { 1, 1.9, 1 } };
    pw_scaling_fit fit = report_words(out, sizeof out, pts, 3, 2, ov);
    EXPECT(fit.suspect == 1 && fit.fitted == 0 && isnan(fit.p), "1 suspect, nothing fitted, p n/a (%d, %d, %g)",
           fit.suspect, fit.fitted, fit.p);
    EXPECT(fabs(fit.overlap[1] - 0.05) < 1e-9 && isnan(fit.overlap[0]), "overlap 5%% at 2, n/a at 1");
    EXPECT(strstr(out, "suspect: together 5%") != NULL, "the row is marked:\n%s", out);
    EXPECT(strstr(out, "\nsuspect, work: at 2 threads the threads got too little CPU to have run at the same time") != NULL,
           "the one line:\n%s", out);
    EXPECT(strstr(out, "Amdahl fit: n/a: the points that could fit it (2 threads, at most 2 cores) are suspect") != NULL, "fit n/a:\n%s", out);
    EXPECT(strstr(out, "ceiling") == NULL, "no ceiling printed:\n%s", out);
    EXPECT(strstr(out, "e = 1.0202 at 2 threads (0.99x: slower than one thread") != NULL, "e(2) = 1.02 > 1 said in words:\n%s", out);

    /* The same speedups with the threads running together: p = 0 is fitted,
     * and said to be no speedup, not a ceiling of 1.0x. */
    pw_overlap ok[] = { { 1, 1, 1 }, { 1, 1.95, 1 }, { 1, 1.9, 1 } };
    fit = report_words(out, sizeof out, pts, 3, 2, ok);
    EXPECT(fit.p == 0 && fit.fitted == 1 && fit.suspect == 0, "p = 0 fitted from the 2-thread point (%g)", fit.p);
    EXPECT(strstr(out, "p = 0: this run showed no speedup (best 0.99x at 2 threads)") != NULL, "p = 0 in words:\n%s", out);
    EXPECT(strstr(out, "ceiling 1.0x") == NULL && strstr(out, "suspect") == NULL, "no ceiling, nothing suspect:\n%s", out);

    /* Faster than the processors allow: e < 0 in words. */
    pw_scaling_point fast[] = { point(1, 1.0), point(2, 1 / 2.2) };
    fit = report_words(out, sizeof out, fast, 2, 2, NULL);
    EXPECT(strstr(out, "infx") == NULL && strstr(out, "no serial part") != NULL, "p = 1: no infinite ceiling:\n%s", out);
    EXPECT(fit.karp_flatt[1] < 0 && strstr(out, "e = -0.0909 at 2 threads (2.20x: more than 2 processors can give") != NULL, "e < 0 said in words:\n%s", out);
}

int main(void)
{
    RUN(test_report_and_fit);
    RUN(test_suspect_points);
    RUN(test_default_threads);
    return UNIT_RESULT();
}
