/* tests/wrong/1.2-middle-element.c: exercise 1.2 taking each quantile as
 * one sample, s[(int)(q * n)], with no interpolation: for an even count the
 * median is the upper of the two middle samples, not their mean.
 * expect: FAIL: median of \{3, 1\} should be 2, got 3
 * hint: average the two middle values */
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
    int k = (int)(q * n);
    return s[k < n ? k : n - 1];
}

void summarize(const double *samples, int n, struct summary *out)
{
    double *s = malloc((size_t)n * sizeof *s);
    PW_CHECK_ALLOC(s, (size_t)n * sizeof *s);
    memcpy(s, samples, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, compare_doubles);
    out->min = s[0];
    out->median = quantile_sorted(s, n, 0.5);
    out->q1 = quantile_sorted(s, n, 0.25);
    out->q3 = quantile_sorted(s, n, 0.75);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += samples[i];
    out->mean = sum / n;
    free(s);
}
