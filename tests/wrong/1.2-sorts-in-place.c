/* tests/wrong/1.2-sorts-in-place.c: exercise 1.2 sorting the caller's
 * samples instead of a copy: every statistic is right, but the samples lose
 * their time order (which run came first, the cold one).
 * expect: FAIL: your summarize\(\) sorted the caller.s array in place
 * hint: the samples in time order */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "errcheck.h"
#include "summary.h"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile_sorted(const double *s, int n, double q)
{
    double pos = q * (n - 1);
    int lo = (int)floor(pos);
    int hi = lo + 1 < n ? lo + 1 : lo;
    return s[lo] + (pos - lo) * (s[hi] - s[lo]);
}

void summarize(const double *samples, int n, struct summary *out)
{
    double *s = (double *)samples;   /* the caller's array itself */
    qsort(s, (size_t)n, sizeof *s, compare_doubles);
    out->min = s[0];
    out->median = quantile_sorted(s, n, 0.5);
    out->q1 = quantile_sorted(s, n, 0.25);
    out->q3 = quantile_sorted(s, n, 0.75);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += s[i];
    out->mean = sum / n;
}
