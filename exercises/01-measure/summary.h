/* exercises/01-measure/summary.h: what exercise 1.2 asks you to write.
 *
 * Your exercises/01-measure/summary.c implements summarize(); the checker
 * (check_summary.c) and the solution include this same header. */
#ifndef PW_EX_SUMMARY_H
#define PW_EX_SUMMARY_H

/* The statistics an honest timing reports. Quantiles use the "type 7" rule
 * (R's default, NumPy's "linear", pw_quantile in common/timing.h): q(p) sits
 * at position p*(n-1) in the sorted samples, interpolated linearly between
 * the two order statistics around it. */
struct summary {
    double min;      /* the smallest sample: q(0) */
    double median;   /* q(0.5): the typical run, which outliers barely move */
    double q1;       /* q(0.25), the lower quartile */
    double q3;       /* q(0.75), the upper quartile; q3 - q1 is the IQR, the spread */
    double mean;     /* sum / n: every outlier pulls it */
};

/* Fill *out from samples[0..n-1], n >= 1. samples is left as it was (the
 * caller may still want them in time order), so sort a copy. */
void summarize(const double *samples, int n, struct summary *out);

#endif
