/* exercises/04-openmp/check_moments.c: the checker of exercise 4.3 (a bug hunt).
 *
 * Built with your exercises/04-openmp/moments.c by `make ex-4.3`, or with
 * solutions/04-openmp/moments.c by `make solution-4.3`. It is also the
 * statistics library (moments.h): welford_push() keeps the running mean and
 * variance and notes, per OpenMP thread, which accumulator the thread pushes
 * into and how many threads its team has. After each call of moments_omp()
 * that tells, from addresses alone (so the verdict does not depend on timing
 * or on how busy the machine is):
 *   - whether two threads pushed into the same accumulator (a race, or under
 *     a lock, threads taking turns); this one is also caught as it happens,
 *     before the second thread writes;
 *   - whether two threads' accumulators lie in the same 64-byte cache line
 *     (false sharing: right answers, but each push waits for the line to come
 *     back from the other core);
 *   - whether the pushes ran in a team of the threads asked for.
 * The cases: n = 0, 1, 2, 7, 1001, 65537 (odd: uneven shares) on 1, 2, 3
 * and 7 threads, and 7 values on 16 threads, against pushing every value in
 * order (count exact, mean and m2 within 1e-10 relative: the merge adds in
 * another order). Then, for information only, the time on 1 and 2 threads.
 * Built without OpenMP it grades on one thread and says what it cannot see.
 * The first problem is reported as the kind of bug it is, never with a place
 * in your file. Last line "PASS: ..." and exit 0, or exit 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exercise.h"
#include "moments.h"
#include "omp_info.h"
#include "timing.h"
#include "util.h"

#ifdef _OPENMP
#include <omp.h>
static int team_size(void) { return omp_get_num_threads(); }
#else
static int team_size(void) { return 1; }
#endif

#define LINE 64
#define MAX_ADDR 4   /* accumulators noted per thread and call */

/* What thread k of the team did in the current call; written only by that
 * thread, read by the main thread after the parallel region has ended. */
typedef struct {
    alignas(LINE) int call;          /* the call this is about (stale if older); alignas: a line per
                                      * note, or the notes themselves would share lines */
    int team;                        /* omp_get_num_threads() at its pushes */
    long long pushes;
    int naddr;
    const welford *addr[MAX_ADDR];   /* the accumulators it pushed into */
} thread_note;

static thread_note note[MOMENTS_MAX_THREADS];
static _Atomic(uintptr_t) first_addr[MOMENTS_MAX_THREADS];   /* each thread's first accumulator, as it happens */
static int call_no;
static atomic_int failed;

static void stop(const char *what, const char *why)
{
    if (atomic_exchange(&failed, 1)) for (;;) pause();   /* another thread is reporting */
    printf("wrong\nFAIL: %s\n%s\nexercise 4.3 is not right yet: start with the FAIL above\n", what, why);
    fflush(stdout);
    _exit(PW_EXIT_WRONG);
}

static const char *const SHARED_WHY =
    "  without a lock, two threads that update one accumulator at the same moment lose updates\n"
    "  (a data race); with one (critical, atomic), they take turns, and the loop runs no faster\n"
    "  than on one thread. Each thread needs an accumulator of its own.";

static int overlap(const welford *a, const welford *b)
{
    return (uintptr_t)a < (uintptr_t)(b + 1) && (uintptr_t)b < (uintptr_t)(a + 1);
}

/* The first push of a thread in this call: publish its accumulator, and look
 * at the others'. seq_cst: of two threads publishing the same one, at least
 * one sees the other's and stops before writing it. */
static void first_push(int k, const welford *w)
{
    atomic_store(&first_addr[k], (uintptr_t)w);
    for (int j = 0; j < MOMENTS_MAX_THREADS; j++) {
        uintptr_t other = j == k ? 0 : atomic_load(&first_addr[j]);
        if (other && overlap(w, (const welford *)other)) stop("two threads pushed into the same accumulator", SHARED_WHY);
    }
}

void welford_push(welford *w, double x)
{
    int k = pw_omp_thread_num();
    if (k < 0 || k >= MOMENTS_MAX_THREADS) stop("a thread number above 63", "  moments_omp runs on 64 threads at most");
    thread_note *me = &note[k];
    if (me->call != call_no) {
        *me = (thread_note){ .call = call_no, .team = team_size() };
        first_push(k, w);
    }
    if (team_size() > me->team) me->team = team_size();
    me->pushes++;
    int i = 0;
    while (i < me->naddr && me->addr[i] != w) i++;
    if (i == me->naddr && i < MAX_ADDR) me->addr[me->naddr++] = w;

    w->n++;
    double d = x - w->mean;
    w->mean += d / (double)w->n;
    w->m2 += d * (x - w->mean);
}

welford welford_merge(welford a, welford b)
{
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    long long n = a.n + b.n;
    double d = b.mean - a.mean;
    return (welford){ n, a.mean + d * (double)b.n / (double)n,
                      a.m2 + b.m2 + d * d * (double)a.n * (double)b.n / (double)n };
}

/* ---- the cases ---------------------------------------------------------- */

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

/* moments_omp() called with the stack `depth` bytes deeper (a multiple of
 * 16: the ABI keeps the stack 16-byte aligned at a call), so that where its
 * local arrays fall within a cache line changes from call to call, as it
 * does between programs that call it (see check_pair()). */
static __attribute__((noinline)) welford at_depth(const double *x, size_t n, int T, int depth)
{
    volatile char pad[depth + 16];   /* 16 + depth bytes: 16 more per step (gcc and clang round a VLA to 16) */
    pad[0] = 0;
    welford w = moments_omp(x, n, T);
    w.n += pad[0];   /* + 0: reading the pad after the call keeps it below the call */
    return w;
}

static int close_enough(double got, double want) { return fabs(got - want) <= 1e-10 * fabs(want) + 1e-12; }

/* Whether the accumulators at p and q share a 64-byte line. */
static int share_line(uintptr_t p, uintptr_t q)
{
    uintptr_t p0 = p / LINE, p1 = (p + sizeof(welford) - 1) / LINE;
    uintptr_t q0 = q / LINE, q1 = (q + sizeof(welford) - 1) / LINE;
    return p0 <= q1 && q0 <= p1;
}

static void false_sharing_why(void)
{
    printf("  the answers are right, but a core must own a whole cache line to write any of it:\n"
           "  two threads pushing into one line pass it back and forth on every push, and\n"
           "  more threads do not run faster (they can run slower). No accumulator may share\n"
           "  a line with another thread's.\n");
}

/* Two threads' accumulators p and q (that do not overlap): 0 if no line
 * can hold both, wherever the compiler may put them; else a FAIL, and 1.
 * Where the layout puts them depends on what the program asked of it:
 * padding sets the distance q - p, but only alignment (alignas, or a type
 * whose _Alignof is 64) fixes where a line starts. A welford is 8-byte
 * aligned, so an array of padded welfords without alignas may start at
 * any multiple of 8 (16 on the stack): 64-byte strides then put two
 * accumulators in one line at 2 of the 8 offsets (48 and 56), and that
 * run passes or fails by where the stack happened to be (6 of 8 runs
 * passed, before this check). So the accumulators are judged at every
 * offset an 8-byte alignment allows, unless both start on a line, as
 * alignas(64) puts them; and to take away the luck that an unaligned
 * array starts on a line, every call comes from a stack 16 bytes deeper
 * than the last, modulo 64 (at_depth()): one of 4 calls in a row at most
 * can land on a line. */
static int check_pair(size_t n, int T, int k, int j, const welford *pa, const welford *qa)
{
    uintptr_t p = (uintptr_t)pa, q = (uintptr_t)qa;
    long long apart = llabs((long long)((intptr_t)q - (intptr_t)p));
    int off_p = (int)(p % LINE), off_q = (int)(q % LINE);
    int who = off_p ? k : j, off = off_p ? off_p : off_q;
    if (share_line(p, q)) {
        if (apart < LINE) {
            pw_ex_fail("n = %zu on %d threads: the accumulators of threads %d and %d are %lld bytes apart, "
                       "in the same %d-byte cache line: false sharing", n, T, k, j, apart, LINE);
            false_sharing_why();
            return 1;
        }
        pw_ex_fail("n = %zu on %d threads: the accumulators of threads %d and %d are %lld bytes apart but not aligned "
                   "to the %d-byte cache line (thread %d's starts %d bytes into one): here they share a line, "
                   "false sharing", n, T, k, j, apart, LINE, who, off);
    } else {
        if (off_p == 0 && off_q == 0) return 0;   /* both on a line: aligned, judged as they are */
        int shift = 0;
        for (int s = (int)_Alignof(welford); s < LINE && !shift; s += (int)_Alignof(welford))
            if (share_line(p + (uintptr_t)s, q + (uintptr_t)s)) shift = s;
        if (!shift) return 0;   /* far enough apart for any placement */
        pw_ex_fail("n = %zu on %d threads: the accumulators of threads %d and %d are %lld bytes apart but not aligned "
                   "to the %d-byte cache line (thread %d's starts %d bytes into one): here they sit in separate lines, "
                   "but %d bytes further on they would share one", n, T, k, j, apart, LINE, who, off, shift);
    }
    printf("  how far apart they are is not enough: which line each lies in depends on where the array starts,\n"
           "  and a struct of doubles is only %d-byte aligned (_Alignof), so the compiler may start it at any\n"
           "  multiple of %d bytes: this run is right or wrong by where the stack happened to be. The checker\n"
           "  calls moments_omp() with the stack at 4 depths 16 bytes apart, and the layout must be right at each:\n"
           "  align every accumulator to the line itself (alignas on the type or its member), or keep them more\n"
           "  than a line apart.\n", (int)_Alignof(welford), (int)_Alignof(welford));
    false_sharing_why();
    return 1;
}

/* The threads' notes of the last call: sharing, layout, team. 0 if fine. */
static int check_notes(size_t n, int T)
{
    int team = 0;
    long long pushes = 0;
    for (int k = 0; k < MOMENTS_MAX_THREADS; k++) {
        if (note[k].call != call_no) continue;
        pushes += note[k].pushes;
        if (note[k].team > team) team = note[k].team;
        for (int j = k + 1; j < MOMENTS_MAX_THREADS; j++) {
            if (note[j].call != call_no) continue;
            for (int a = 0; a < note[k].naddr; a++)
                for (int b = 0; b < note[j].naddr; b++) {
                    const welford *p = note[k].addr[a], *q = note[j].addr[b];
                    if (overlap(p, q)) stop("two threads pushed into the same accumulator", SHARED_WHY);
                    if (check_pair(n, T, k, j, p, q)) return 1;
                }
        }
    }
    if (pushes != (long long)n) {
        pw_ex_fail("n = %zu on %d threads: %lld values were pushed, want each of the %zu exactly once", n, T, pushes, n);
        return 1;
    }
    int want_team = team_for(T);
    if (n > 0 && team < want_team) {
        pw_ex_fail("n = %zu, asked for %d threads: the values were pushed by a team of %d", n, T, team);
        printf("  the loop must run in a parallel region of the threads asked for\n");
        return 1;
    }
    return 0;
}

static int try_case(const double *x, size_t n, int T)
{
    /* The reference: the same update, in order, on one accumulator. */
    welford want = { 0, 0.0, 0.0 };
    for (size_t i = 0; i < n; i++) {
        want.n++;
        double d = x[i] - want.mean;
        want.mean += d / (double)want.n;
        want.m2 += d * (x[i] - want.mean);
    }
    call_no++;   /* the notes of older calls go stale */
    for (int k = 0; k < MOMENTS_MAX_THREADS; k++) atomic_store(&first_addr[k], 0);
    printf("  n = %-7zu threads = %-3d ", n, T);
    welford got = at_depth(x, n, T, 16 * (call_no % 4));
    if (check_notes(n, T)) return 1;
    if (got.n != want.n || !close_enough(got.mean, want.mean) || !close_enough(got.m2, want.m2)) {
        pw_ex_fail("n = %zu on %d threads: n, mean, m2 = %lld, %.17g, %.17g; want %lld, %.17g, %.17g", n, T, got.n,
                   got.mean, got.m2, want.n, want.mean, want.m2);
        printf("  every thread's accumulator must start at zero and be merged once\n");
        return 1;
    }
    printf("ok\n");
    return 0;
}

#ifndef UNDER_SANITIZER
typedef struct { const double *x; size_t n; int T; welford got; } time_ctx;
static void run_moments(void *p) { time_ctx *c = p; c->got = moments_omp(c->x, c->n, c->T); }
#endif

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    enum { BIGN = 1 << 22 };
    double *x = malloc(BIGN * sizeof *x);
    float *r = pw_alloc_floats(BIGN);
    if (!x || !r) { printf("FAIL: out of memory\n"); return PW_EXIT_WRONG; }
    pw_fill_random(r, BIGN, 43, 0.0f, 1000.0f);
    for (size_t i = 0; i < BIGN; i++) x[i] = r[i];
    pw_free(r);

    printf("exercise 4.3: moments_omp() against pushing the values in order, with every push watched\n");
    if (!pw_omp_enabled()) printf("(built without OpenMP: graded on one thread, where neither sharing nor false sharing can show; get it: %s)\n", PW_OMP_INSTALL_HINT);
    static const size_t sizes[] = { 0, 1, 2, 7, 1001, 65537 };
    static const int threads[] = { 1, 2, 3, 7 };
    int bad = 0;
    for (int k = 0; k < 4 && !bad; k++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !bad; i++) bad = try_case(x, sizes[i], threads[k]);
    if (!bad) bad = try_case(x, 7, 16);
    if (bad) {
        free(x);
        printf("exercise 4.3 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
#ifndef UNDER_SANITIZER
    /* Information, not a verdict: times depend on the machine and its load. */
    pw_bench_config cfg = pw_bench_defaults();
    cfg.min_reps = 5;
    cfg.min_time_s = 0;
    pw_bench_stats st1, st2;
    time_ctx c1 = { x, BIGN, 1, { 0, 0.0, 0.0 } }, c2 = { x, BIGN, 2, { 0, 0.0, 0.0 } };
    pw_bench(&cfg, run_moments, &c1, &st1);
    pw_bench(&cfg, run_moments, &c2, &st2);
    printf("  for information: %d values in %.2f ms on 1 thread, %.2f ms on 2 (%.2fx)\n", BIGN, st1.median * 1e3,
           st2.median * 1e3, st1.median / st2.median);
#endif
    free(x);
    if (!pw_omp_enabled()) {
        /* One thread cannot share a cache line with another: the bug this
         * exercise is about cannot show, so this build cannot grade it. */
        printf("SKIP: right on one thread, but built without OpenMP the program never runs two threads, so false\n"
               "  sharing cannot happen or be checked: build with OpenMP (on macOS, brew install libomp) to grade 4.3\n");
        return 77;
    }
    return pw_ex_pass("right on 1 to 16 threads, each thread with an accumulator of its own, no two in one cache line");
}
