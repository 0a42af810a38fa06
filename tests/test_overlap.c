/* tests/test_overlap.c: the measure of whether threads ran at the same time.
 *
 * The arithmetic is checked on made-up clocks; then two threads pinned to
 * one CPU must be reported as not running together (this holds on any
 * machine, busy or idle: the test that can always fail); and on an idle
 * machine with two or more cores, two threads left free must NOT be
 * reported. "Idle" is judged independently of the measure under test: from
 * /proc/stat, the CPU time the whole machine spent busy during the run,
 * less what this process got. When other programs took more than a tenth of
 * the machine, that part is skipped with the numbers, never passed.
 */
#ifdef __linux__
#define _GNU_SOURCE   /* sched_setaffinity */
#include <sched.h>
#else
#define _POSIX_C_SOURCE 200809L
#endif
#include "overlap.h"
#include "threads.h"
#include "timing.h"
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pw_overlap made_up(double wall, double cpu) { pw_overlap o = { wall, cpu, 1 }; return o; }

static void test_share_arithmetic(void)
{
    pw_overlap o = made_up(1.0, 1.12);
    EXPECT(fabs(pw_overlap_concurrency(&o) - 1.12) < 1e-12, "C = cpu / wall");
    EXPECT(fabs(pw_overlap_share(&o, 2, 2) - 0.12) < 1e-12, "2 threads, 2 cores: share = C - 1");
    EXPECT(pw_overlap_suspect(&o, 2, 2), "12%% together is suspect");
    o = made_up(1.0, 1.9);
    EXPECT(fabs(pw_overlap_share(&o, 2, 2) - 0.9) < 1e-12 && !pw_overlap_suspect(&o, 2, 2), "90%% is fine");
    EXPECT(fabs(pw_overlap_share(&o, 4, 2) - 0.9) < 1e-12, "4 threads on 2 cores: N = 2 could run at once");
    o = made_up(1.0, 2.5);
    EXPECT(fabs(pw_overlap_share(&o, 4, 4) - 0.5) < 1e-12, "4 of 4: (2.5 - 1) / 3");
    EXPECT(pw_overlap_share(&o, 2, 2) == 1.0, "clamped at 1");
    o = made_up(1.0, 0.6);
    EXPECT(pw_overlap_share(&o, 2, 2) == 0.0, "less than one core busy: clamped at 0");
    EXPECT(isnan(pw_overlap_share(&o, 1, 4)) && isnan(pw_overlap_share(&o, 4, 1)), "one thread or one core: n/a");
    pw_overlap none = { 0 };
    EXPECT(isnan(pw_overlap_share(&none, 2, 2)) && !pw_overlap_suspect(&none, 2, 2), "nothing measured: n/a");

    /* A speedup proves overlap the clock may have missed, never less. */
    EXPECT(fabs(pw_overlap_share_with_speedup(0.45, 1.90, 2, 2, 2) - 0.9) < 1e-12, "1.90x on 2 threads: at least 90%%");
    EXPECT(pw_overlap_share_with_speedup(0.45, 1.20, 2, 2, 2) == 0.45, "a small speedup keeps the clock's 45%%");
    EXPECT(pw_overlap_share_with_speedup(0.10, 0.95, 2, 2, 2) == 0.10, "slower than one thread proves nothing");
    EXPECT(fabs(pw_overlap_share_with_speedup(0.0, 2.5, 4, 4, 4) - 0.5) < 1e-12, "4 of 4: (2.5 - 1) / 3");
    EXPECT(fabs(pw_overlap_share_with_speedup(0.0, 1.9, 4, 2, 2) - 0.9) < 1e-12, "4 threads on 2 cores: N = 2");
    EXPECT(pw_overlap_share_with_speedup(0.2, 2.4, 2, 2, 2) == 1.0, "clamped at 1");
    EXPECT(pw_overlap_share_with_speedup(0.3, 1.6, 2, 2, 1) == 0.3, "taskset -c 0: one CPU, a 1.6x is noise, the clock's 30%% stays");
    EXPECT(fabs(pw_overlap_share_with_speedup(0.0, 2.5, 4, 4, 2) - 1.0) < 1e-12, "4 threads on 2 allowed of 4 cores: N = 2");
    EXPECT(isnan(pw_overlap_share_with_speedup(NAN, 1.9, 2, 2, 2)), "not judged stays not judged");
    EXPECT(isnan(pw_overlap_share_with_speedup(0.3, 1.9, 1, 2, 2)), "one thread: n/a");
}

static void test_warn_line(void)
{
    char buf[1024];
    FILE *f = tmpfile();
    if (!f) SKIP("no tmpfile");
    pw_overlap bad = made_up(1.0, 1.12), good = made_up(1.0, 1.95);
    EXPECT(pw_overlap_warn(f, "pi", &good, 2, 2) == 0, "no line when the threads ran together");
    EXPECT(pw_overlap_warn(f, "pi", &bad, 2, 2) == 1, "a line when they did not");
    int ts[3] = { 1, 2, 4 };
    double sh[3] = { NAN, 0.12, 0.3 };
    EXPECT(pw_overlap_warn_sweep(f, "x", ts, sh, 3, 2) == 2, "two suspect points in the sweep");
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    EXPECT(!strncmp(buf, "suspect, pi: your 2 threads got 1.12 of the 2 cores they could use on average, enough to "
                         "have run at the same time for as little as 12% of the run: ", 120), "the line:\n%s", buf);
    EXPECT(strstr(buf, "\nsuspect, x: at 2, 4 threads the threads got too little CPU to have run at the same time "
                       "for most of the run (at 2, perhaps only 12% of it): ") != NULL,
           "the sweep line:\n%s", buf);
    EXPECT(strchr(buf, '\n') && strchr(strchr(buf, '\n') + 1, '\n') && !strchr(strchr(strchr(buf, '\n') + 1, '\n') + 1, '\n'),
           "one line each:\n%s", buf);
    /* Two threads that got no more than one core's worth of CPU (each half
     * of a busy core, or both on one): the line says that, not a share. */
    f = tmpfile();
    if (!f) SKIP("no tmpfile");
    pw_overlap starved = made_up(1.0, 0.95);
    EXPECT(pw_overlap_warn(f, NULL, &starved, 2, 2) == 1, "a line for 0.95 cores");
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    EXPECT(strstr(buf, "suspect: your 2 threads got 0.95 cores' worth of CPU between them on average, no more than "
                       "one core gives") != NULL, "the line:\n%s", buf);
}

/* A thread that keeps a CPU busy for `seconds` of wall time. */
typedef struct { double seconds; volatile double sink; } spin_arg;
static void *spin(void *p)
{
    spin_arg *a = p;
    double end = pw_now() + a->seconds, x = 1;
    while (pw_now() < end)
        for (int i = 0; i < 1000; i++) x = x * 1.0000001 + 1e-9;
    a->sink = x;
    return NULL;
}

static pw_overlap spin_two(double seconds)
{
    spin_arg args[2] = { { seconds, 0 }, { seconds, 0 } };
    pw_overlap o = { 0 };
    pw_overlap_mark m = pw_overlap_begin();
    threads_run(2, spin, args, sizeof args[0], THREADS_ANYWHERE);
    pw_overlap_end(&o, m);
    return o;
}

static void test_pinned_is_reported(void)
{
#ifdef __linux__
    if (pw_cores() < 2) SKIP("one core: every run is pinned to it");
    /* In a child, so the rest of the tests keep every CPU. */
    int fd[2];
    if (pipe(fd)) SKIP("no pipe");
    pid_t pid = fork();
    if (pid == 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0) _exit(3);
        pw_overlap o = spin_two(0.1);
        double r[2] = { pw_overlap_share(&o, 2, pw_cores()), (double)pw_cpus_allowed() };
        if (write(fd[1], r, sizeof r) != (ssize_t)sizeof r) _exit(4);
        _exit(0);
    }
    close(fd[1]);
    double r[2] = { NAN, 0 };
    ssize_t got = read(fd[0], r, sizeof r);
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    EXPECT(got == (ssize_t)sizeof r && WIFEXITED(status) && WEXITSTATUS(status) == 0, "the pinned child ran");
    EXPECT(r[0] < PW_OVERLAP_SUSPECT, "two threads pinned to one CPU ran together %.0f%% of the time: must be "
           "reported (below %.0f%%)", 100 * r[0], 100 * PW_OVERLAP_SUSPECT);
    EXPECT(r[1] == 1, "the pinned process sees one allowed CPU (%.0f)", r[1]);
#else
    SKIP("pinning needs Linux (sched_setaffinity)");
#endif
}

/* Busy and total jiffies of the whole machine, from /proc/stat's cpu line. */
static int machine_jiffies(double *busy, double *total)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return -1;
    unsigned long long v[10] = { 0 };
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                   &v[6], &v[7]);
    fclose(f);
    if (n < 5) return -1;
    *total = 0;
    for (int i = 0; i < 8; i++) *total += (double)v[i];
    *busy = *total - (double)v[3] - (double)v[4];   /* all but idle and iowait; steal counts as busy */
    return 0;
}

static void test_idle_machine_is_not_reported(void)
{
    static char why[200];
    if (pw_cores() < 2) SKIP("one core: two threads cannot run at the same time here");
    if (pw_cpus_allowed() < 2) SKIP("this process may use only one CPU (taskset or a container)");
    long hz = sysconf(_SC_CLK_TCK);
    double others = 0, capacity = 0;
    for (int attempt = 0; attempt < 3; attempt++) {
        double b0, t0, b1, t1;
        if (machine_jiffies(&b0, &t0)) SKIP("no /proc/stat: cannot tell whether the machine is idle");
        double cpu0 = pw_process_cpu_s();
        pw_overlap o = spin_two(0.3);
        double cpu1 = pw_process_cpu_s();
        if (machine_jiffies(&b1, &t1)) SKIP("no /proc/stat");
        others = (b1 - b0) / (double)hz - (cpu1 - cpu0);
        capacity = (t1 - t0) / (double)hz;
        /* Idle enough: the rest of the machine used under a tenth of it. */
        if (others < 0.1 * capacity) {
            double share = pw_overlap_share(&o, 2, pw_cores());
            EXPECT(share >= PW_OVERLAP_SUSPECT, "on an idle machine (others used %.2f of %.2f CPU-s) two free threads "
                   "ran together only %.0f%% of the time: the measure is wrong", others, capacity, 100 * share);
            return;
        }
    }
    snprintf(why, sizeof why, "the machine is busy (other programs used %.2f of %.2f CPU-seconds during the "
             "run): cannot show that idle threads overlap", others, capacity);
    SKIP(why);
}

int main(void)
{
    RUN(test_share_arithmetic);
    RUN(test_warn_line);
    RUN(test_pinned_is_reported);
    RUN(test_idle_machine_is_not_reported);
    return UNIT_RESULT();
}
