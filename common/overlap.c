/* common/overlap.c: CPU time against wall time, and the verdict on a sweep. */
#ifdef __linux__
#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT: Linux only */
#include <sched.h>
#else
#define _POSIX_C_SOURCE 200809L
#endif
#include "overlap.h"
#include "timing.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double pw_process_cpu_s(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return NAN;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

pw_overlap_mark pw_overlap_begin(void)
{
    pw_overlap_mark m = { pw_now(), pw_process_cpu_s() };
    return m;
}

void pw_overlap_end(pw_overlap *o, pw_overlap_mark m)
{
    double cpu = pw_process_cpu_s(), wall = pw_now();
    if (isnan(cpu) || isnan(m.cpu)) return;   /* no process clock: nothing is judged */
    o->wall_s += wall - m.wall;
    o->cpu_s += cpu - m.cpu;
    o->runs++;
}

double pw_overlap_concurrency(const pw_overlap *o)
{
    if (!o || o->runs == 0 || o->wall_s <= 0) return NAN;
    return o->cpu_s / o->wall_s;
}

static int could_run(int threads, int cores) { return threads < cores ? threads : cores; }

double pw_overlap_share(const pw_overlap *o, int threads, int cores)
{
    int n = could_run(threads, cores);
    double c = pw_overlap_concurrency(o);
    if (n <= 1 || isnan(c)) return NAN;
    double share = (c - 1) / (n - 1);
    return share < 0 ? 0 : (share > 1 ? 1 : share);
}

double pw_overlap_share_with_speedup(double share, double speedup, int threads, int cores, int cpus_allowed)
{
    int n = could_run(threads, cores);
    if (n <= 1) return NAN;   /* as pw_overlap_share: at most one thread could run */
    if (isnan(share) || !(speedup > 1)) return share;
    /* Threads confined to fewer CPUs (taskset, a container) cannot have run
     * side by side on more of them, so a speedup beyond that is noise: on
     * one CPU (taskset -c 0) a --tiny run's 1-thread median, slowed once,
     * has read as a 1.6x "speedup" that hid the truth. */
    if (cpus_allowed < n) n = cpus_allowed;
    if (n <= 1) return share;
    double proven = (speedup - 1) / (n - 1);
    if (proven > 1) proven = 1;
    return proven > share ? proven : share;
}

bool pw_overlap_suspect(const pw_overlap *o, int threads, int cores)
{
    double share = pw_overlap_share(o, threads, cores);
    return !isnan(share) && share < PW_OVERLAP_SUSPECT;
}

int pw_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (int)n;
}

int pw_cpus_allowed(void)
{
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n >= 1) return n;
    }
#endif
    return pw_cores();
}

/* The advice that ends the line: what to do about it. */
static const char *advice(int could, char *buf, size_t len)
{
    int allowed = pw_cpus_allowed();
    if (allowed < could)
        snprintf(buf, len, "this process may run on only %d of the %d CPUs (taskset, or a container's limit)",
                 allowed, pw_cores());
    else
        snprintf(buf, len, "rerun on an idle machine");
    return buf;
}

int pw_overlap_warn(FILE *f, const char *what, const pw_overlap *o, int threads, int cores)
{
    if (!pw_overlap_suspect(o, threads, cores)) return 0;
    double share = pw_overlap_share(o, threads, cores), c = pw_overlap_concurrency(o);
    int n = could_run(threads, cores);
    char adv[160];
    fprintf(f, "suspect%s%s: ", what && *what ? ", " : "", what && *what ? what : "");
    /* C is the CPU the threads got, not when they got it: C <= 1 means one
     * core could have done the same, and (C - 1) / (N - 1) is the least
     * share of the run they can have spent side by side. */
    if (c <= 1)
        fprintf(f, "your %d threads got %.2f cores' worth of CPU between them on average, no more than one core "
                "gives, so this run cannot show them running at the same time", threads, c);
    else
        fprintf(f, "your %d threads got %.2f of the %d cores they could use on average, enough to have run at the "
                "same time for as little as %.0f%% of the run", threads, c, n, 100 * share);
    fprintf(f, ": %s\n", advice(n, adv, sizeof adv));
    return 1;
}

int pw_overlap_warn_sweep(FILE *f, const char *what, const int *threads, const double *share, int count,
                          int cores)
{
    char list[256] = "";
    int bad = 0, worst_t = 0, most = 1;
    double worst = 2;
    for (int i = 0; i < count; i++) {
        if (isnan(share[i]) || share[i] >= PW_OVERLAP_SUSPECT) continue;
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%d", bad ? ", " : "", threads[i]);
        bad++;
        if (share[i] < worst) { worst = share[i]; worst_t = threads[i]; }
        int n = could_run(threads[i], cores);
        if (n > most) most = n;
    }
    if (!bad) return 0;
    char adv[160];
    fprintf(f, "suspect%s%s: at %s threads the threads got too little CPU to have run at the same time for most "
            "of the run (at %d, perhaps only %.0f%% of it): %s\n", what && *what ? ", " : "", what && *what ? what : "",
            list, worst_t, 100 * worst, advice(most, adv, sizeof adv));
    return bad;
}
