/* exercises/01-measure/summary.c: exercise 1.2, the statistics of a timing.
 *
 * What it teaches: one run of a kernel is not "the time". The first call is
 * cold (caches, page faults), and any sample can be hit by an interrupt or
 * another process. So a timing is many samples and a summary of them: the
 * median (the typical run), the quartiles q1 and q3 (their spread, the IQR),
 * the min (what the machine can do), and the mean, shown here for contrast:
 * the checker feeds your code a cold sample 100x the others and shows how far
 * the mean moves while the median barely does.
 *
 * Write summarize(), declared in summary.h: from samples[0..n-1] fill
 * out->min, median, q1, q3, mean, with quantiles by the "type 7" rule that
 * pw_quantile in common/timing.h uses, and without changing samples.
 *
 * Check your work:  make ex-1.2     (n = 1 to 101, even and odd counts,
 * duplicates, unsorted input, the cold sample; each failure is explained).
 * The answer is in solutions/01-measure/summary.c: try first.
 */
#include <stdlib.h>   /* malloc, free, qsort */
#include <string.h>   /* memcpy */

#include "exercise.h"
#include "summary.h"

/* min, median, quartiles and mean of samples[0..n-1], n >= 1. */
void summarize(const double *samples, int n, struct summary *out)
{
    /* TODO: in four steps.
     * 1. Copy the samples: malloc n doubles and memcpy them (samples is the
     *    caller's array; sorting it in place would lose the time order).
     * 2. Sort the copy with qsort. It needs a comparison function, which
     *    you write above summarize():
     *        static int compare_doubles(const void *a, const void *b)
     *        {
     *            double x = *(const double *)a, y = *(const double *)b;
     *            return (x > y) - (x < y);   // -1, 0 or 1; no overflow
     *        }
     * 3. Quantile q of the sorted copy s ("type 7"): the position
     *    p = q * (n - 1) lies between lo = floor(p) and lo + 1, so
     *        q(p) = s[lo] + (p - lo) * (s[lo + 1] - s[lo])
     *    (when lo + 1 == n, it is just s[lo]). A helper
     *        static double quantile_sorted(const double *s, int n, double q)
     *    saves writing it three times. Check by hand: for {1, 2, 3, 4} the
     *    median is at p = 1.5, halfway between 2 and 3: 2.5; q1 is at
     *    p = 0.75: 1.75.
     * 4. min is s[0]; mean is the sum of the samples divided by n. Free the
     *    copy.
     * Then delete the four lines below. */
    (void)samples;
    (void)n;
    (void)out;
    PW_NOT_YET_IMPLEMENTED();
}
