/* tests/wrong/1.2-sort-loops-on-ties.c: exercise 1.2 with a hand-written
 * bubble sort that swaps on >= instead of >: two equal samples (a timer's
 * ticks repeat all the time) are swapped back and forth forever, so the
 * sort never ends. The checker stops itself before the grader's limit and
 * says why, instead of the grader's bare "timed out".
 * expect: FAIL: still running after [0-9]+ s \(the checker's own limit
 * hint: loops forever
 * limit: 5 */
#include <stdlib.h>
#include <string.h>

#include "errcheck.h"
#include "summary.h"

static double quantile_sorted(const double *s, int n, double q)
{
    double pos = q * (n - 1);
    int lo = (int)pos;
    int hi = lo + 1 < n ? lo + 1 : lo;
    return s[lo] + (pos - lo) * (s[hi] - s[lo]);
}

void summarize(const double *samples, int n, struct summary *out)
{
    double *s = malloc((size_t)n * sizeof *s);
    PW_CHECK_ALLOC(s, (size_t)n * sizeof *s);
    memcpy(s, samples, (size_t)n * sizeof *s);
    /* Sorted when a pass makes no swap; but >= swaps equal neighbours too. */
    for (int swapped = 1; swapped;) {
        swapped = 0;
        for (int i = 0; i + 1 < n; i++)
            if (s[i] >= s[i + 1]) {
                double t = s[i]; s[i] = s[i + 1]; s[i + 1] = t;
                swapped = 1;
            }
    }

    out->min = s[0];
    out->median = quantile_sorted(s, n, 0.5);
    out->q1 = quantile_sorted(s, n, 0.25);
    out->q3 = quantile_sorted(s, n, 0.75);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += samples[i];
    out->mean = sum / n;
    free(s);
}
