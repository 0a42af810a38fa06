/* exercises/01-measure/check_summary.c: the checker of exercise 1.2 (summary).
 *
 * Built with your exercises/01-measure/summary.c by `make ex-1.2`, or with
 * solutions/01-measure/summary.c by `make solution-1.2`. What it tries:
 * summarize() on n = 1, 2, 3, 4, 5, 10 (with duplicates), all-equal
 * samples, 101 fixed-seed random samples, and 21 timings whose first (cold)
 * sample is 100x the others; every input is unsorted. Each field must match
 * pw_quantile / pw_mean from common/timing.h, and the caller's array must be
 * unchanged afterwards. The cold-sample case also prints the lesson: how far
 * the median and the mean moved.
 * Each failure is explained in a line or two, starting "FAIL:". The last
 * line is "PASS: ..." and the exit status 0, or the status is 1.
 */
#include "exercise.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "summary.h"
#include "timing.h"
#include "util.h"

/* Tolerance: a right answer may differ from pw_quantile and pw_mean in the
 * last bits (another interpolation formula, the sum in sorted order), a few
 * ulps; any real mistake (a wrong order statistic) is off by far more. */
#define ATOL 1e-15
#define RTOL 1e-12

typedef struct {
    const char *name;   /* how the failure message names the input */
    int n;
    double *x;          /* the samples, in the order the caller has them */
} input;

/* True while a progress line ("  n=4 {4, 1, 3, 2}   ") waits for its end. */
static bool line_open;

/* Ends the progress line and prints a failure, one line "FAIL: ..." that
 * tools/grade.sh quotes in its verdict. */
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%sFAIL: ", line_open ? "wrong\n" : "");
    line_open = false;
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

static bool same(double got, double want) { return pw_close(got, want, ATOL, RTOL); }

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A sorted copy of x (the checker's own, for the hints). Free it. */
static double *sorted_copy(const double *x, int n)
{
    double *s = pw_alloc_doubles((size_t)n);
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, compare_doubles);
    return s;
}

/* Linear interpolation at position pos of s[0..n-1], pos clamped to it. */
static double at_position(const double *s, int n, double pos)
{
    if (pos <= 0) return s[0];
    if (pos >= n - 1) return s[n - 1];
    int lo = (int)floor(pos);
    return s[lo] + (pos - lo) * (s[lo + 1] - s[lo]);
}

/* "{4, 1, 3, 2}" for short inputs, the input's name otherwise. */
static const char *describe(const input *in, char *buf, size_t len)
{
    if (in->n > 10) return in->name;
    size_t used = (size_t)snprintf(buf, len, "{");
    for (int i = 0; i < in->n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%g", i ? ", " : "", in->x[i]);
    if (used < len) snprintf(buf + used, len - used, "}");
    return buf;
}

/* Why a quantile q (0.25, 0.5, 0.75) came out wrong, for the usual slips. */
static const char *quantile_hint(const input *in, const double *s, double q, double got)
{
    int n = in->n;
    double pos = q * (n - 1);
    int lo = (int)floor(pos);
    bool interpolates = pos != lo;
    if (isnan(got)) return "summarize() did not set it (it still holds NaN)";
    if (q == 0.5 && n % 2 == 0 && (got == s[n / 2] || got == s[n / 2 - 1]))
        return "with an even count, average the two middle values";
    if (interpolates && (got == s[lo] || got == s[lo + 1]))
        return "position q*(n-1) falls between two sorted samples: interpolate between them, "
               "s[lo] + (p - lo) * (s[lo+1] - s[lo]), rather than take one";
    /* Reversed inputs such as {3, 1} cannot tell these two apart. */
    bool unsorted = same(got, at_position(in->x, n, pos));
    bool swapped = q != 0.5 && same(got, at_position(s, n, (1 - q) * (n - 1)));
    if (unsorted && swapped)
        return "q1 and q3 swapped, or taken from the unsorted samples (sort a copy first)?";
    if (unsorted)
        return "that is the right position, but in the unsorted samples: sort a copy first";
    if (swapped)
        return "q1 and q3 are swapped: q1 is the lower quartile, at position 0.25*(n-1)";
    if (same(got, at_position(s, n, q * n)) || same(got, at_position(s, n, q * n - 1))
        || same(got, at_position(s, n, q * (n + 1) - 1)))
        return "use the position q*(n-1) in the sorted samples (0 is the smallest, n-1 the largest)";
    if (q == 0.5)
        return "the median is the middle of the sorted samples: position 0.5*(n-1)";
    return "type 7: position q*(n-1) in the sorted samples, interpolated linearly";
}

/* Each field of *got against the references; prints a FAIL per wrong field. */
static int check_fields(const input *in, const struct summary *got)
{
    int n = in->n, bad = 0;
    char buf[160];
    const char *what = describe(in, buf, sizeof buf);
    double *s = sorted_copy(in->x, n);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += in->x[i];

    /* min */
    double want = pw_quantile(in->x, n, 0.0);
    if (!same(got->min, want)) {
        fail("min of %s should be %.9g, got %.9g: %s", what, want, got->min,
             isnan(got->min) ? "summarize() did not set out->min (it still holds NaN)"
                       : got->min == in->x[0] ? "that is the first sample: the min looks at all n "
                                                "(or is s[0] of the sorted copy)"
                       : got->min == 0 ? "did the minimum start at 0? Start from the first sample"
                       : "the min is the smallest sample");
        bad = 1;
    }
    /* median, q1, q3 */
    static const struct { const char *name; double q; size_t off; } qs[] = {
        { "median", 0.5, offsetof(struct summary, median) },
        { "q1", 0.25, offsetof(struct summary, q1) },
        { "q3", 0.75, offsetof(struct summary, q3) },
    };
    for (int k = 0; k < 3; k++) {
        double g = *(const double *)((const char *)got + qs[k].off);
        want = pw_quantile(in->x, n, qs[k].q);
        if (same(g, want)) continue;
        fail("%s of %s should be %.9g, got %.9g: %s", qs[k].name, what, want, g,
             quantile_hint(in, s, qs[k].q, g));
        bad = 1;
    }
    /* mean */
    want = pw_mean(in->x, n);
    if (!same(got->mean, want)) {
        const char *why = isnan(got->mean) ? "summarize() did not set out->mean (it still holds NaN)"
                        : n > 1 && same(got->mean, sum / (n - 1)) ? "divide the sum by n, not n - 1"
                        : same(got->mean, pw_median(in->x, n)) ? "that is the median; the mean is the sum divided by n"
                        : "the mean is the sum of all n samples divided by n";
        fail("mean of %s should be %.9g, got %.9g: %s", what, want, got->mean, why);
        bad = 1;
    }
    pw_free(s);
    return bad;
}

/* summarize() on one input: the caller's array must come back as it was. */
static int try_input(const input *in, struct summary *got)
{
    int n = in->n;
    /* Heap copies of exactly n: a read past the end shows under `make sanitize`,
     * and writing into the caller's array does not touch in->x. */
    double *callers = malloc((size_t)n * sizeof *callers);
    if (!callers) { printf("checker: out of memory\n"); exit(PW_EXIT_WRONG); }
    memcpy(callers, in->x, (size_t)n * sizeof *callers);
    got->min = got->median = got->q1 = got->q3 = got->mean = NAN;

    printf("  %-26s ", in->name);
    line_open = true;
    summarize(callers, n, got);

    int bad = 0;
    if (memcmp(callers, in->x, (size_t)n * sizeof *callers) != 0) {
        int i = 0;
        while (callers[i] == in->x[i]) i++;
        bool sorted = true;
        for (int k = 1; k < n; k++) sorted = sorted && callers[k - 1] <= callers[k];
        if (sorted) {
            fail("your summarize() sorted the caller's array in place: copy it first (n = %d)", n);
            printf("  the caller may still need the samples in time order, e.g. to report the cold first one\n");
        } else {
            fail("summarize() changed samples[%d] from %.9g to %.9g (n = %d)", i, in->x[i], callers[i], n);
            printf("  the samples are the caller's (const): work on a copy\n");
        }
        bad = 1;
    } else {
        bad = check_fields(in, got);
    }
    if (!bad) {
        line_open = false;
        printf("ok: median %.6g, q1 %.6g, q3 %.6g\n", got->median, got->q1, got->q3);
    }
    free(callers);
    return bad;
}

/* The lesson: 20 warm samples, then the same with a cold first one 100x slower. */
static void show_cold_lesson(const struct summary *warm, const struct summary *all)
{
    printf("lesson: one cold first call, 100x the others, among 21 timings (ms):\n");
    printf("            20 warm    with the cold one\n");
    printf("  median  %8.4f  %8.4f   (%+.1f%%)\n", warm->median * 1e3, all->median * 1e3,
           100 * (all->median / warm->median - 1));
    printf("  mean    %8.4f  %8.4f   (%+.0f%%)\n", warm->mean * 1e3, all->mean * 1e3,
           100 * (all->mean / warm->mean - 1));
    printf("  the median barely moved and the mean jumped: report the median and the IQR,\n"
           "  and the cold call apart\n");
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    /* Unbuffered, so what was printed survives a crash and stays in order
     * with anything written to stderr. */

    static double one[] = { 5 };
    static double two[] = { 3, 1 };
    static double three[] = { 3, 1, 2 };
    static double four[] = { 4, 1, 3, 2 };
    static double five[] = { 5, 3, 1, 4, 2 };
    static double ten[] = { 2, 7, 2, 9, 4, 4, 4, 1, 8, 2 };     /* duplicates */
    static double equal[] = { 3, 3, 3, 3, 3, 3 };

    /* 101 fixed-seed samples between 1 and 2 ms, unsorted. */
    static double random101[101];
    float f[101];
    pw_fill_random(f, 101, 42, 1e-3f, 2e-3f);
    for (int i = 0; i < 101; i++) random101[i] = f[i];

    /* 21 timings of about 1 ms with a little noise; the first one cold, 100x. */
    static double cold[21];
    float jitter[21];
    pw_fill_random(jitter, 21, 7, -0.02f, 0.02f);
    for (int i = 0; i < 21; i++) cold[i] = 1e-3 * (1 + jitter[i]);
    cold[0] = 100e-3;

    const input inputs[] = {
        { "n=1 {5}", 1, one },
        { "n=2 {3, 1}", 2, two },
        { "n=3 {3, 1, 2}", 3, three },
        { "n=4 {4, 1, 3, 2}", 4, four },
        { "n=5 {5, 3, 1, 4, 2}", 5, five },
        { "n=10 with duplicates", 10, ten },
        { "n=6 all equal", 6, equal },
        { "the 101 random samples", 101, random101 },
        { "the 20 warm timings", 20, cold + 1 },
        { "the 21 timings, 1 cold", 21, cold },
    };
    const int ninputs = (int)(sizeof inputs / sizeof inputs[0]);

    printf("exercise 1.2: summarize() against pw_quantile and pw_mean (common/timing.h)\n");
    struct summary got[sizeof inputs / sizeof inputs[0]];
    for (int k = 0; k < ninputs; k++) {
        if (try_input(&inputs[k], &got[k])) {
            printf("exercise 1.2 is not right yet: start with the first FAIL above\n");
            return PW_EXIT_WRONG;
        }
    }
    show_cold_lesson(&got[ninputs - 2], &got[ninputs - 1]);
    return pw_ex_pass("summarize() matches pw_quantile and pw_mean on %d inputs (n = 1 to 101) "
           "and leaves the caller's samples as they were", ninputs);
}
