/* exercises/02-simd/check_sumsq.c: the checker of exercise 2.2.
 *
 * Built with your exercises/02-simd/sumsq.c by `make ex-2.2`, or with
 * solutions/02-simd/sumsq.c by `make solution-2.2`. What it tries:
 *   1. 13 sizes from 0 to 1000003, most not a multiple of 4, 8 or 16, on
 *      whole numbers from {-2, -1, 1, 2}: every square is 1 or 4 and every
 *      partial sum an exact float (below 2^24), so any order of summation
 *      gives the exact answer, and a dropped or doubled element shows;
 *   2. the same sizes on random reals in [-1, 1), within (n + 1) * 2^-24
 *      of the sum, relative: the proven bound for adding n positive terms
 *      in any order (each add rounds by at most 2^-24 of a partial sum, and
 *      no partial sum exceeds the total). It is loose on purpose: one chain
 *      really does drift that way (the plain loop is 3.7e-4 off at
 *      n = 1000003: the sum grows large and each small square it adds is
 *      rounded to the large sum's precision), while 16 partial sums, each
 *      16 times smaller, stay far closer;
 *   3. the speed at n = 4096 (16 KiB, in L1) against the plain loop: the
 *      point of the exercise. Below 1.5x means the compiler kept one chain.
 *      (Not judged under a sanitizer, whose checks dominate the time.)
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "exercise.h"
#include "check.h"
#include "sumsq.h"
#include "timing.h"
#include "util.h"

static const size_t sizes[] = { 0, 1, 7, 15, 16, 17, 31, 33, 100, 1000, 4099, 65537, 1000003 };
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define MAXN 1000003

/* The plain loop: one chain (noinline, so it is timed as a call too). */
__attribute__((noinline)) static float plain_sumsq(const float *x, size_t n)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i++) s += x[i] * x[i];
    return s;
}

static double exact_sumsq(const float *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += (double)x[i] * x[i];
    return s;
}

/* Whole numbers: explain a wrong sum (a dropped tail of n mod k?). */
static int check_ints(float *x, size_t n, uint64_t seed)
{
    static const float v[4] = { -2, -1, 1, 2 };
    pw_fill_random(x, n, seed, 0.0f, 4.0f);
    for (size_t i = 0; i < n; i++) x[i] = v[(int)x[i] & 3];
    printf("  n = %-8zu whole numbers ", n);
    float got = sumsq(x, n);
    double want = exact_sumsq(x, n);
    if (got == want) { printf("ok\n"); return 0; }
    for (size_t r = 1; r < 64 && r <= n; r++) {
        if (got == want - exact_sumsq(x + n - r, r)) {
            pw_ex_fail("sumsq(n=%zu) = %.0f, want %.0f: the last %zu element%s left out (the tail after the whole blocks)",
                 n, got, want, r, r == 1 ? " was" : "s were");
            printf("  after the loop over blocks, add the remaining elements one at a time\n");
            return 1;
        }
    }
    pw_ex_fail("sumsq(n=%zu) = %.9g, want %.0f exactly: on whole numbers every order of summation is exact,\n"
         "  so an element was skipped, counted twice, or read from outside x", n, got, want);
    return 1;
}

static int check_reals(float *x, size_t n, uint64_t seed)
{
    pw_fill_random(x, n, seed, -1.0f, 1.0f);
    printf("  n = %-8zu random reals  ", n);
    float got = sumsq(x, n);
    double want = exact_sumsq(x, n);
    double rtol = (double)(n + 1) * 0x1p-24;
    if (pw_close(got, want, 0, rtol)) { printf("ok (%.1e off)\n", want ? fabs(got - want) / want : 0.0); return 0; }
    pw_ex_fail("sumsq(n=%zu) = %.9g, want %.9g (within %.1e relative): more than rounding can explain",
         n, got, want, rtol);
    return 1;
}

typedef struct { float (*fn)(const float *, size_t); const float *x; size_t n; float s; } speed_ctx;
static void run_speed(void *p) { speed_ctx *c = p; c->s = c->fn(c->x, c->n); }

/* The learner's sumsq over the plain loop's time at n = 4096. */
static double speedup(float *x)
{
    const size_t n = 4096;
    pw_fill_random(x, n, 77, -1.0f, 1.0f);
    pw_bench_config cfg = pw_bench_defaults();
    cfg.min_reps = 7;
    cfg.min_time_s = 0.02;
    pw_bench_stats plain, yours;
    speed_ctx a = { plain_sumsq, x, n, 0 }, b = { sumsq, x, n, 0 };
    pw_bench_stats both[2];
    /* In turns, so a busy moment on the machine slows both alike. */
    pw_bench_sweep(&cfg, (const pw_work_fn[]){ run_speed, run_speed }, (void *const[]){ &a, &b }, 2, both);
    plain = both[0];
    yours = both[1];
    pw_sink += a.s + b.s;
    printf("  n = 4096: plain loop %.0f ns, yours %.0f ns: %.1fx\n", plain.median * 1e9, yours.median * 1e9,
           plain.median / yours.median);
    return plain.median / yours.median;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_check_set_stream(stdout);
    float *x = pw_alloc_floats(MAXN);
    printf("exercise 2.2: sumsq() on %zu sizes from 0 to %d, then its speed\n", NSIZES, MAXN);
    int bad = 0;
    for (size_t k = 0; k < NSIZES && !bad; k++) bad = check_ints(x, sizes[k], 300 + k);
    for (size_t k = 0; k < NSIZES && !bad; k++) bad = check_reals(x, sizes[k], 400 + k);
    double s = bad ? 0 : speedup(x);
#if !defined(UNDER_SANITIZER)
    if (!bad && s < 1.5) {
        printf("FAIL: sumsq is right but only %.1fx the plain loop: the compiler kept one chain\n"
               "  use 16 partial sums in an array, and keep the inner loop simple (no calls, no breaks)\n", s);
        bad = 1;
    }
#endif
    pw_free(x);
    if (bad) {
        printf("exercise 2.2 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("sumsq() is right on all %zu sizes, tails included, and %.1fx faster than one chain", NSIZES, s);
}
