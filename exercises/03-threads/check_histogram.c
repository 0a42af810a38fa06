/* exercises/03-threads/check_histogram.c: the checker of exercise 3.1.
 *
 * Built with your exercises/03-threads/histogram.c by `make ex-3.1`, or with
 * solutions/03-threads/histogram.c by `make solution-3.1`. What it tries:
 *   1. uniform random bytes, n = 0, 1, 7, 1001, 65537 (odd: not a multiple
 *      of any thread count but 1), on 1, 2, 3 and 7 threads, and 7 bytes on
 *      16 threads (more threads than data);
 *   2. 2000003 bytes all of one value (a blank image), on 2, 3 and 7
 *      threads, three times each: every thread hits the same bin, so a race
 *      loses counts on any machine with two cores;
 *   3. 2000003 uniform bytes on 2 threads.
 * Each histogram must equal a sequential count exactly. A failure says which
 * mistake it looks like: elements nobody counted, elements counted twice, or
 * counts lost to a race. Last line "PASS: ..." and exit 0, or exit 1.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "histogram.h"
#include "util.h"

#define BIG 2000003

/* The sequential count of data[0 .. n-1]. */
static void count_ref(const unsigned char *data, size_t n, unsigned long long *ref)
{
    memset(ref, 0, HIST_BINS * sizeof *ref);
    for (size_t i = 0; i < n; i++) ref[data[i]]++;
}

static unsigned long long total(const unsigned long long *bins)
{
    unsigned long long s = 0;
    for (int b = 0; b < HIST_BINS; b++) s += bins[b];
    return s;
}

/* Says what the wrong histogram looks like; always returns 1. */
static int explain(const unsigned char *data, size_t n, int T, const unsigned long long *got,
                   const unsigned long long *ref)
{
    unsigned long long sum = total(got), alt[HIST_BINS];
    size_t rem = n % (size_t)T;
    count_ref(data, n - rem, alt);
    if (rem && !memcmp(got, alt, sizeof alt)) {
        pw_ex_fail("n = %zu on %d threads: the last %zu element%s (n %% threads) were not counted", n, T, rem,
             rem == 1 ? "" : "s");
        printf("  n / threads rounds down, so %d blocks of %zu stop at %zu; the blocks must cover data[0 .. n-1]:\n"
               "  give the first n %% threads blocks one more element (or let the last block run to n)\n",
               T, n / (size_t)T, n - rem);
        return 1;
    }
    if (sum == (unsigned long long)n * (unsigned long long)T && T > 1) {
        pw_ex_fail("n = %zu on %d threads: %llu counts, %d times n: every thread counted all the data", n, T, sum, T);
        printf("  thread t must count only its own block data[lo .. hi-1]\n");
        return 1;
    }
    if (sum > n) {
        pw_ex_fail("n = %zu on %d threads: %llu counts for %zu elements: some elements were counted twice", n, T, sum, n);
        printf("  do the blocks overlap? Each element belongs to exactly one thread's block\n");
        return 1;
    }
    if (sum < n && T > 1) {
        pw_ex_fail("n = %zu on %d threads: %llu of %zu counts were lost (%.1f%%), and 1 thread was exact: a race", n, T,
             (unsigned long long)n - sum, n, 100.0 * (double)(n - sum) / (double)n);
        printf("  two threads read the same bin, both add 1, both write it back: one count is gone.\n"
               "  Count into a private histogram per thread and add them up after pthread_join.\n");
        return 1;
    }
    int b = 0;
    while (got[b] == ref[b]) b++;
    pw_ex_fail("n = %zu on %d threads: bins[%d] = %llu, want %llu (the total is %s)", n, T, b, got[b], ref[b],
         sum == n ? "right: counts went into the wrong bins" : "wrong");
    printf("  bins[b] counts the elements equal to b: bins[data[i]] += 1\n");
    return 1;
}

/* One case; 0 if exact. */
static int try_case(const unsigned char *data, size_t n, int T, const char *kind)
{
    unsigned long long got[HIST_BINS + 1], ref[HIST_BINS];
    got[HIST_BINS] = 0xfeedULL;   /* a fence just past bins[] */
    for (int b = 0; b < HIST_BINS; b++) got[b] = 12345;   /* stale counts: bins must be overwritten */
    count_ref(data, n, ref);
    printf("  %-8s n = %-8zu threads = %-3d ", kind, n, T);
    histogram_threads(data, n, T, got);
    if (got[HIST_BINS] != 0xfeedULL) {
        pw_ex_fail("n = %zu on %d threads: histogram_threads wrote past bins[%d]", n, T, HIST_BINS - 1);
        return 1;
    }
    if (memcmp(got, ref, sizeof ref)) return explain(data, n, T, got, ref);
    printf("ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    unsigned char *uniform = malloc(BIG), *blank = malloc(BIG);
    if (!uniform || !blank) { printf("FAIL: out of memory\n"); return 1; }
    float *r = pw_alloc_floats(BIG);
    pw_fill_random(r, BIG, 31, 0.0f, 256.0f);
    for (size_t i = 0; i < BIG; i++) { uniform[i] = (unsigned char)r[i]; blank[i] = 200; }
    pw_free(r);

    printf("exercise 3.1: histogram_threads() against a sequential count, exactly\n");
    static const size_t sizes[] = { 0, 1, 7, 1001, 65537 };
    static const int threads[] = { 1, 2, 3, 7 };
    int bad = 0;
    for (size_t t = 0; t < 4 && !bad; t++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && !bad; k++)
            bad = try_case(uniform, sizes[k], threads[t], "uniform");
    if (!bad) bad = try_case(uniform, 7, 16, "uniform");
    for (int rep = 0; rep < 3 && !bad; rep++)
        for (size_t t = 1; t < 4 && !bad; t++) bad = try_case(blank, BIG, threads[t], "one-bin");
    if (!bad) bad = try_case(uniform, BIG, 2, "uniform");
    free(uniform);
    free(blank);
    if (bad) {
        printf("exercise 3.1 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("histogram_threads() is exact on 1, 2, 3, 7 and 16 threads, odd sizes, and 2M bytes of one value");
}
