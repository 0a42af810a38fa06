/* kernels/alphabeta.c: the alpha-beta fit (alphabeta.h). */
#include "alphabeta.h"

#include <math.h>

double ab_residual(const ab_line *l, double n, double t)
{
    return (l->alpha + l->beta * n - t) / t;
}

/* Weighted least squares with w_i = 1/t_i^2: minimise sum w_i (t_i - a - b n_i)^2.
 * The normal equations, centred on the weighted means for accuracy (n runs
 * from 1 to 6.7e7, t from 1e-7 to 3e-2: raw sums of n^2 w would lose digits). */
int ab_fit(const double *n, const double *t, int lo, int hi, ab_line *out)
{
    double sw = 0, swn = 0, swt = 0;
    for (int i = lo; i < hi; i++) {
        double w = 1 / (t[i] * t[i]);
        sw += w;
        swn += w * n[i];
        swt += w * t[i];
    }
    if (hi - lo < 2 || !(sw > 0)) return -1;
    double nm = swn / sw, tm = swt / sw, snn = 0, snt = 0;
    for (int i = lo; i < hi; i++) {
        double w = 1 / (t[i] * t[i]);
        snn += w * (n[i] - nm) * (n[i] - nm);
        snt += w * (n[i] - nm) * (t[i] - tm);
    }
    if (!(snn > 0)) return -1;               /* all sizes equal: no slope */
    ab_line l = { .beta = snt / snn };
    l.alpha = tm - l.beta * nm;
    double ss = 0;
    for (int i = lo; i < hi; i++) {
        double r = ab_residual(&l, n[i], t[i]);
        ss += r * r;
        if (fabs(r) > l.max_rel || i == lo) { l.max_rel = fabs(r); l.worst = i; }
    }
    l.rms_rel = sqrt(ss / (hi - lo));
    *out = l;
    return 0;
}

int ab_fit_two_segments(const double *n, const double *t, int count, int min_points, ab_line *below, ab_line *above)
{
    if (min_points < 2) min_points = 2;
    int best = -1;
    double best_ss = INFINITY;
    for (int k = min_points; k + min_points <= count; k++) {
        ab_line a, b;
        if (ab_fit(n, t, 0, k, &a) || ab_fit(n, t, k, count, &b)) continue;
        double ss = a.rms_rel * a.rms_rel * k + b.rms_rel * b.rms_rel * (count - k);
        if (ss < best_ss) { best_ss = ss; best = k; *below = a; *above = b; }
    }
    return best;
}
