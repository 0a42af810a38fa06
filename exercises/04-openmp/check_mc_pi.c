/* exercises/04-openmp/check_mc_pi.c: the checker of exercise 4.6.
 *
 * Built with your exercises/04-openmp/mc_pi.c by `make ex-4.6`, or with
 * solutions/04-openmp/mc_pi.c by `make solution-4.6`. It is also the
 * generator (mc_pi.h): mc_uniform() notes, per OpenMP thread, which
 * generator the thread draws from, that generator's seed and stream, the
 * first numbers it drew, how many, and which of its points (two draws in a
 * row, x then y) fall inside the circle. So the verdict comes from what
 * was drawn, not from timings or luck:
 *   - two threads drawing from one generator (a race on its state: lost or
 *     repeated numbers; under a lock, threads taking turns) is stopped at
 *     the second thread's first draw, before it changes the state;
 *   - two threads drawing the same numbers (the same stream, or one
 *     generator copied to each) or overlapping ones (one a few draws behind
 *     the other): each thread's first number is looked for among the other
 *     threads' first 64. Such threads throw the same points, and T copies
 *     of n/T points estimate pi no better than n/T points (an error sqrt(T)
 *     times that of n independent ones);
 *   - thread t's generator must be mc_rng_make(seed, t): a stream chosen
 *     otherwise (a counter, the order threads arrive) changes between runs,
 *     and seed + t as the seed makes thread 1 of run s draw what thread 0
 *     of run s + 1 draws;
 *   - 2 n draws in all, and your estimate equal to 4 * (points inside) / n
 *     counted from the draws themselves (a lost count, a race on a shared
 *     counter, shows here), within 1e-12 relative (the same division,
 *     rounded perhaps in another order);
 *   - the draws spread over the team asked for (n >= 1000 per thread);
 *   - the estimate within 5 standard deviations of pi: a point is inside
 *     with p = pi/4, so 4 * inside / n has a standard deviation of
 *     4 sqrt(p (1 - p) / n) = 1.642 / sqrt(n) (binomial); with the
 *     generator checked above, a right answer is this far off with a chance
 *     of 6e-7 per case, and the seeds are fixed: it is checked once here;
 *   - the same n, seed and thread count twice: the same estimate, bit for
 *     bit (schedule(dynamic) draws other points on each thread every run).
 * The cases: n = 1, 2, 3, 1000 and 400009 points on 1, 2, 3 and 7 threads,
 * each twice. rand() and its kin are refused when the build reads your
 * object file (check_mc_pi.rules). Built without OpenMP it grades on one
 * thread and says so. Last line "PASS: ..." and exit 0, or exit 1.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exercise.h"
#include "mc_pi.h"
#include "omp_info.h"
#include "timing.h"
#include "util.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define MAX_THREADS 64
#define FIRST 64            /* numbers noted per thread, for the overlap test */
#define GAMMA 0x9e3779b97f4a7c15ull   /* splitmix64's step: 2^64 / the golden ratio, odd */

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

mc_rng mc_rng_make(uint64_t seed, uint64_t stream)
{
    return (mc_rng){ mix64(seed ^ mix64(stream + GAMMA)), stream, seed };
}

/* ---- what each thread drew ---------------------------------------------- */

typedef struct {
    alignas(64) int call;     /* the call this note is about (stale if older); a line per note */
    const mc_rng *gen;        /* the generator it drew from first */
    uint64_t stream, seed;    /* that generator's, at the first draw */
    int generators;           /* how many it drew from */
    long long draws, inside;
    bool have_x;
    double x;
    int nfirst;
    uint64_t first[FIRST];    /* its first outputs (the 64-bit values behind the doubles) */
} thread_note;

static thread_note note[MAX_THREADS];
static _Atomic(uintptr_t) first_gen[MAX_THREADS];   /* each thread's generator, as it happens */
static int call_no;
static atomic_int failed;

static void stop(const char *what, const char *why)
{
    if (atomic_exchange(&failed, 1)) for (;;) pause();   /* another thread is reporting */
    printf("wrong\nFAIL: %s\n%s\nexercise 4.6 is not right yet: start with the FAIL above\n", what, why);
    fflush(stdout);
    _exit(PW_EXIT_WRONG);
}

/* A thread's first draw of the call: publish its generator and look at the
 * others'. seq_cst: of two threads publishing the same one, at least one
 * sees the other's, and stops before it changes the state. */
static void first_draw(int k, const mc_rng *g)
{
    atomic_store(&first_gen[k], (uintptr_t)g);
    for (int j = 0; j < MAX_THREADS; j++)
        if (j != k && atomic_load(&first_gen[j]) == (uintptr_t)g)
            stop("two threads drew from one generator",
                 "  mc_uniform() changes the generator it is given: two threads drawing from one at the same time\n"
                 "  race on its state (numbers lost or drawn twice, and which thread gets which depends on the\n"
                 "  timing), and with a lock they take turns, no faster than one thread (rand() is this, for the\n"
                 "  whole process). Each thread makes its own, inside the parallel region: mc_rng_make(seed, t)");
}

double mc_uniform(mc_rng *g)
{
    int k = pw_omp_thread_num();
    if (k < 0 || k >= MAX_THREADS) stop("a thread number above 63", "  mc_pi runs on 64 threads at most");
    thread_note *me = &note[k];
    if (me->call != call_no) {
        first_draw(k, g);
        *me = (thread_note){ .call = call_no, .gen = g, .stream = g->stream, .seed = g->seed, .generators = 1 };
    } else if (g != me->gen) {
        me->generators++;
        me->gen = g;
    }
    uint64_t z = mix64(g->counter += GAMMA);
    if (me->nfirst < FIRST) me->first[me->nfirst++] = z;
    me->draws++;
    double u = (double)(z >> 11) * 0x1.0p-53;
    if (!me->have_x) {
        me->x = u;
        me->have_x = true;
    } else {
        me->inside += me->x * me->x + u * u < 1.0;
        me->have_x = false;
    }
    return u;
}

/* ---- one call ------------------------------------------------------------ */

/* How many threads a parallel region asked for T gets here. */
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

static const char *const SAME_WHY =
    "  threads that draw the same numbers throw the same points: T copies of n/T points estimate pi no\n"
    "  better than n/T points, an error sqrt(T) times larger than n independent points give (and no\n"
    "  test of the result alone can tell). Each thread needs a stream of its own: mc_rng_make(seed, t),\n"
    "  made by thread t (omp_get_thread_num()) inside the parallel region";

/* Where thread k's first number is among thread j's first ones, or -1. */
static int found_at(const thread_note *j, const thread_note *k)
{
    if (!k->nfirst) return -1;
    for (int d = 0; d < j->nfirst; d++)
        if (j->first[d] == k->first[0]) return d;
    return -1;
}

/* The threads' notes of the last call. 0, or a FAIL and 1. */
static int check_draws(long long n, uint64_t seed, int T, int want_team, double got)
{
    long long draws = 0, inside = 0;
    int drew = 0;
    for (int k = 0; k < MAX_THREADS; k++) {
        const thread_note *a = &note[k];
        if (a->call != call_no) continue;
        drew++;
        draws += a->draws;
        inside += a->inside;
        for (int j = 0; j < MAX_THREADS; j++) {
            if (j == k || note[j].call != call_no) continue;
            int d = found_at(&note[j], a);
            if (d == 0 && j < k) {
                pw_ex_fail("n = %lld on %d threads: threads %d and %d drew the same numbers", n, T, j, k);
                printf("%s\n", SAME_WHY);
                return 1;
            }
            if (d > 0) {
                pw_ex_fail("n = %lld on %d threads: thread %d drew thread %d's numbers, %d draws behind (overlapping "
                           "streams)", n, T, k, j, d);
                printf("%s\n", SAME_WHY);
                return 1;
            }
        }
    }
    for (int k = 0; k < MAX_THREADS; k++) {
        const thread_note *a = &note[k];
        if (a->call != call_no) continue;
        if (a->seed != seed) {
            pw_ex_fail("n = %lld on %d threads: thread %d's generator was made with seed %llu, but mc_pi was given "
                       "seed %llu", n, T, k, (unsigned long long)a->seed, (unsigned long long)seed);
            printf("  the seed names the run and the stream names the thread: mc_rng_make(seed, t). With the seed\n"
                   "  changed per thread (seed + t), thread 1 of run %llu draws what thread 0 of run %llu draws: two\n"
                   "  runs meant to be independent share their numbers\n",
                   (unsigned long long)seed, (unsigned long long)seed + 1);
            return 1;
        }
        if (a->stream != (uint64_t)k) {
            pw_ex_fail("n = %lld on %d threads: thread %d drew from stream %llu, want stream %d (its thread number)", n,
                       T, k, (unsigned long long)a->stream, k);
            printf("  a stream chosen otherwise (the order the threads arrive, a shared counter) gives thread %d\n"
                   "  other numbers in the next run: the estimate would not repeat. mc_rng_make(seed, t), t from\n"
                   "  omp_get_thread_num()\n", k);
            return 1;
        }
        if (a->generators > 1) {
            pw_ex_fail("n = %lld on %d threads: thread %d drew from %d generators, want one", n, T, k, a->generators);
            printf("  make the thread's generator once, before its loop: one made again for each point or block\n"
                   "  starts its stream over, and draws the same numbers again\n");
            return 1;
        }
        if (a->have_x) {
            pw_ex_fail("n = %lld on %d threads: thread %d drew %lld numbers, an odd count: points are two draws each",
                       n, T, k, a->draws);
            return 1;
        }
    }
    if (draws != 2 * n) {
        pw_ex_fail("n = %lld on %d threads: %lld numbers drawn for %lld points, want 2 per point (x, then y)", n, T,
                   draws, n);
        return 1;
    }
    double want = 4.0 * (double)inside / (double)n;
    if (!(fabs(got - want) <= 1e-12 * want)) {
        pw_ex_fail("n = %lld on %d threads: the estimate is %.17g, but the points drawn put %lld of %lld inside: "
                   "4 * %lld / %lld = %.17g", n, T, got, inside, n, inside, n, want);
        printf("  a point is inside when x*x + y*y < 1, x and y its two draws in a row. A count lost on the way\n"
               "  (threads adding to one shared counter without reduction(+: ...): a race) shows as fewer inside\n");
        return 1;
    }
    if (T > 1 && n >= 1000LL * T && drew < want_team) {
        if (drew <= 1)
            pw_ex_fail("n = %lld, asked for %d threads: one thread drew every number", n, T);
        else
            pw_ex_fail("n = %lld, asked for %d threads: %d threads drew", n, T, drew);
        printf("  the loop must run in a parallel region of the threads asked for (no num_threads() clause: the\n"
               "  checker calls omp_set_num_threads())\n");
        return 1;
    }
    double sd = 4.0 * sqrt(M_PI / 4 * (1 - M_PI / 4) / (double)n);
    if (fabs(got - M_PI) > 5 * sd) {
        pw_ex_fail("n = %lld on %d threads: the estimate %.6f is %.1f standard deviations from pi (sd %.2g)", n, T,
                   got, fabs(got - M_PI) / sd, sd);
        return 1;
    }
    return 0;
}

static int try_case(long long n, uint64_t seed, int T)
{
    int want_team = team_for(T);
    pw_omp_set_threads(T);
    printf("  n = %-7lld threads = %d  ", n, T);
    double first = 0;
    for (int round = 0; round < 2; round++) {
        call_no++;   /* the notes of older calls go stale */
        for (int k = 0; k < MAX_THREADS; k++) atomic_store(&first_gen[k], 0);
        double got = mc_pi(n, seed);
        if (check_draws(n, seed, T, want_team, got)) return 1;
        if (round == 0) first = got;
        else if (got != first) {
            pw_ex_fail("n = %lld, seed %llu on %d threads twice: the estimates %.17g and then %.17g", n,
                       (unsigned long long)seed, T, first, got);
            printf("  with the same n, seed and thread count, each thread must draw the same points every run: how\n"
                   "  many depends only on n and T with schedule(static) (dynamic and guided hand them out by\n"
                   "  timing)\n");
            return 1;
        }
    }
    printf("ok  %.6f\n", first);
    return 0;
}

#ifndef UNDER_SANITIZER
typedef struct { long long n; double got; } time_ctx;
static void run_mc(void *p) { time_ctx *c = p; c->got = mc_pi(c->n, 42); }
#endif

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    bool omp = pw_omp_enabled();
    printf("exercise 4.6: mc_pi() with every number drawn watched: whose generator, which stream, which points\n");
    if (!omp) printf("(built without OpenMP: graded on one thread, where no two threads can share anything; get it: %s)\n",
                     PW_OMP_INSTALL_HINT);
    static const long long sizes[] = { 1, 2, 3, 1000, 400009 };
    static const int threads[] = { 1, 2, 3, 7 };
    int bad = 0;
    for (int k = 0; k < (omp ? 4 : 1) && !bad; k++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !bad; i++)
            bad = try_case(sizes[i], 1000 + 17 * (uint64_t)i, threads[k]);
    if (bad) {
        printf("exercise 4.6 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
#ifndef UNDER_SANITIZER
    /* Information, not a verdict: times depend on the machine and its load. */
    pw_bench_config cfg = pw_bench_defaults();
    cfg.min_reps = 5;
    cfg.min_time_s = 0;
    pw_bench_stats st1, st2;
    time_ctx c = { 2000000, 0 };
    pw_omp_set_threads(1);
    pw_bench(&cfg, run_mc, &c, &st1);
    pw_omp_set_threads(2);
    pw_bench(&cfg, run_mc, &c, &st2);
    printf("  for information: %lld points in %.2f ms on 1 thread, %.2f ms on 2 (%.2fx)\n", c.n, st1.median * 1e3,
           st2.median * 1e3, st1.median / st2.median);
#endif
    return pw_ex_pass("a stream of its own per thread, the same estimate twice, within 5 sd of pi, on %s",
                      omp ? "1 to 7 threads" : "one thread (no OpenMP)");
}
