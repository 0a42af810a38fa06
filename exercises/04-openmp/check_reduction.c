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
 * Each failure is explained, starting "FAIL:". The last line is "PASS: ..."
 * and the exit status 0, or the status is 1.
 */
#include "exercise.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_info.h"
#include "reduction.h"
#include "util.h"

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
    float *x = pw_alloc_floats(1000003);
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
            }
            printf("  ok\n");
        }
    }
    pw_free(x);
    return pw_ex_pass("sum_and_max() gives the exact sum and the max on n = 1 to 1000003, on %s",
           pw_omp_enabled() ? "1, 2, 3 and 7 threads" : "one thread (no OpenMP)");
}
