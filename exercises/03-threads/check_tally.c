/* exercises/03-threads/check_tally.c: the checker of exercise 3.2.
 *
 * Built with your exercises/03-threads/tally.c by `make ex-3.2`, or with
 * solutions/03-threads/tally.c by `make solution-3.2`. What it tries:
 *   1. the layout: slots_new(T) for T = 1, 2, 3, 7, 16. Every counter must
 *      start at 0, hold what is written to it without disturbing the
 *      others, and lie in a 64-byte cache line no other thread's counter
 *      touches. This is the false sharing itself, seen in the addresses, so
 *      the verdict does not depend on how busy the machine is.
 *   2. the count: count_above_threads() on n = 0, 1, 7, 1001, 65537 (odd:
 *      uneven blocks) on 1, 2, 3 and 7 threads, against a sequential count.
 *   3. for information only: the time of 4M elements on 1 and 2 threads.
 * Last line "PASS: ..." and exit 0, or exit 1.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "exercise.h"
#include "tally.h"
#include "timing.h"
#include "util.h"

#define LINE 64

/* The cache lines an 8-byte counter at p touches: first and last. */
static uintptr_t line_of(volatile long long *p) { return (uintptr_t)p / LINE; }
static uintptr_t last_line_of(volatile long long *p) { return ((uintptr_t)p + sizeof *p - 1) / LINE; }

static int check_layout(int T)
{
    printf("  slots_new(%-2d) ", T);
    slot *s = slots_new(T);
    int bad = 0;
    for (int t = 0; t < T && !bad; t++)
        if (*slot_counter(s, t) != 0) {
            pw_ex_fail("slots_new(%d): thread %d's counter starts at %lld, not 0", T, t, *slot_counter(s, t));
            bad = 1;
        }
    for (int t = 0; t < T && !bad; t++) *slot_counter(s, t) = 1000 + t;
    for (int t = 0; t < T && !bad; t++)
        if (*slot_counter(s, t) != 1000 + t) {
            pw_ex_fail("slots_new(%d): writing thread %d's counter changed another: thread %d's reads %lld", T, T - 1, t,
                 *slot_counter(s, t));
            printf("  do two slots overlap? slot_counter(s, t) must point into slot t\n");
            bad = 1;
        }
    for (int t = 0; t < T && !bad; t++)
        for (int u = t + 1; u < T && !bad; u++) {
            volatile long long *a = slot_counter(s, t), *b = slot_counter(s, u);
            if (line_of(a) <= last_line_of(b) && line_of(b) <= last_line_of(a)) {
                long long apart = (long long)((intptr_t)b - (intptr_t)a);
                pw_ex_fail("slots_new(%d): the counters of threads %d and %d are %lld bytes apart, in the same %d-byte "
                     "cache line: false sharing", T, t, u, apart, LINE);
                printf("  a core must own the whole line to write one byte of it, so two threads writing these\n"
                       "  counters pass the line back and forth. Make struct slot %d bytes long and aligned\n"
                       "  (alignas(%d) on its member), and allocate it aligned (pw_alloc_bytes)\n", LINE, LINE);
                bad = 1;
            }
        }
    slots_free(s);
    if (!bad) printf("ok\n");
    return bad;
}

static int check_count(const float *x, size_t n, int T)
{
    long long want = 0;
    for (size_t i = 0; i < n; i++) want += x[i] > 0.5f;
    printf("  count_above_threads(n = %-6zu threads = %d) ", n, T);
    long long got = count_above_threads(x, n, 0.5f, T);
    if (got != want) {
        pw_ex_fail("count_above_threads(n = %zu, %d threads) = %lld, want %lld", n, T, got, want);
        printf("  count_above_threads is given: did the change to the slots break a counter?\n");
        return 1;
    }
    printf("ok\n");
    return 0;
}

typedef struct { const float *x; size_t n; int T; long long got; } time_ctx;
static void run_count(void *p) { time_ctx *c = p; c->got = count_above_threads(c->x, c->n, 0.5f, c->T); }

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    enum { BIGN = 4 << 20 };
    float *x = pw_alloc_floats(BIGN);
    pw_fill_random(x, BIGN, 77, 0.0f, 1.0f);

    printf("exercise 3.2: one cache line per thread's counter, then the count\n");
    static const int threads[] = { 1, 2, 3, 7, 16 };
    int bad = 0;
    for (int k = 0; k < 5 && !bad; k++) bad = check_layout(threads[k]);
    static const size_t sizes[] = { 0, 1, 7, 1001, 65537 };
    for (int k = 0; k < 4 && !bad; k++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !bad; i++) bad = check_count(x, sizes[i], threads[k]);
    if (bad) {
        pw_free(x);
        printf("exercise 3.2 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }

    /* Information, not a verdict: times depend on the machine and its load. */
    pw_bench_config cfg = pw_bench_defaults();
    cfg.min_reps = 5;
    cfg.min_time_s = 0;
    pw_bench_stats st1, st2;
    time_ctx c1 = { x, BIGN, 1, 0 }, c2 = { x, BIGN, 2, 0 };
    pw_bench(&cfg, run_count, &c1, &st1);
    pw_bench(&cfg, run_count, &c2, &st2);
    printf("  for information: %d elements in %.2f ms on 1 thread, %.2f ms on 2 (%.2fx)\n", BIGN, st1.median * 1e3,
           st2.median * 1e3, st1.median / st2.median);
    pw_free(x);
    return pw_ex_pass("every thread's counter has a cache line of its own (1 to 16 threads), and the count is exact");
}
