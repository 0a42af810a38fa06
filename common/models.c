/* common/models.c: Amdahl, Gustafson, Karp-Flatt, and the fit of p. */
#include "models.h"

#include <math.h>

double pw_amdahl(double p, double n) { return 1.0 / ((1.0 - p) + p / n); }
double pw_amdahl_ceiling(double p) { return p >= 1.0 ? INFINITY : 1.0 / (1.0 - p); }
double pw_gustafson(double s, double n) { return s + n * (1.0 - s); }
double pw_efficiency(double speedup, double n) { return speedup / n; }

double pw_karp_flatt(double speedup, double n)
{
    if (n <= 1.0 || speedup <= 0.0) return NAN;
    return (1.0 / speedup - 1.0 / n) / (1.0 - 1.0 / n);
}

double pw_fit_parallel_fraction(const double *n, const double *speedup, int count,
                                double *rms_out)
{
    double sxy = 0, sxx = 0;
    for (int i = 0; i < count; i++) {
        if (n[i] <= 1.0 || speedup[i] <= 0.0) continue;
        double x = 1.0 - 1.0 / n[i], y = 1.0 - 1.0 / speedup[i];
        sxy += x * y;
        sxx += x * x;
    }
    if (sxx == 0) {
        if (rms_out) *rms_out = NAN;
        return NAN;
    }
    double p = sxy / sxx;
    p = p < 0 ? 0 : (p > 1 ? 1 : p);
    if (rms_out) {
        double se = 0;
        int k = 0;
        for (int i = 0; i < count; i++) {
            if (speedup[i] <= 0.0) continue;
            double d = pw_amdahl(p, n[i]) - speedup[i];
            se += d * d;
            k++;
        }
        *rms_out = k ? sqrt(se / k) : NAN;
    }
    return p;
}
