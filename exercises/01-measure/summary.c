/* exercises/01-measure/summary.c: exercise 1.2, the statistics of a timing.
 *
 * The task: from n timing samples, compute the summary an honest benchmark
 * reports: min, median, lower and upper quartile, and the mean. Why it is a
 * lesson: one run of a kernel is not "the time". The first call is cold
 * (caches, page faults), and any sample can be hit by an interrupt or
 * another process. So a timing is many samples and a summary of them: the
 * median (the typical run), the quartiles q1 and q3 (the spread, the IQR),
 * the min (what the machine can do), and the mean, here for contrast: the
 * checker feeds your code a cold sample 100x the others and shows how far
 * the mean moves while the median barely does.
 *
 * The interface (summary.h, which documents each field):
 *   void summarize(const double *samples, int n, struct summary *out);
 *   - n >= 1 samples, in time order, unsorted; leave them as they are (the
 *     caller may still want the time order);
 *   - quantiles by the "type 7" rule, the one pw_quantile (common/timing.h)
 *     uses: q(p) sits at position p (n - 1) of the sorted samples,
 *     interpolated linearly between the two values around it. For
 *     {1, 2, 3, 4}: median 2.5, q1 1.75, q3 3.25;
 *   - n = 1: every field is that one sample.
 *
 * What the checker tries (check_summary.c): n = 1, 2, 3, 4, 5 and 10 (with
 * duplicates), all-equal samples, 101 fixed-seed random samples, and 21
 * timings whose first sample is 100x the others; all unsorted. Each field
 * against pw_quantile / pw_mean to 1e-12 relative, and the caller's array
 * unchanged afterwards.
 *
 *   make ex-1.2      grade this file (each failure is explained)
 *   make hint-1.2    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/01-measure/summary.c: try first.
 */
#include <stdlib.h>   /* malloc, free, qsort */
#include <string.h>   /* memcpy */

#include "exercise.h"
#include "summary.h"

/* min, median, quartiles and mean of samples[0..n-1], n >= 1. */
void summarize(const double *samples, int n, struct summary *out)
{
    /* TODO: the summary (helpers of your own above this function are
     * welcome). Then delete the placeholder lines below. */
    (void)samples;
    (void)n;
    (void)out;
    PW_NOT_YET_IMPLEMENTED();
}
