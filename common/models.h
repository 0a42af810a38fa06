/* common/models.h: the laws that predict a speedup, and fitting them.
 *
 * p is the parallel fraction of the work on one processor (0..1), s = 1 - p
 * the serial fraction, N the number of processors.
 *
 *   Amdahl (fixed problem):     S(N) = 1 / ((1 - p) + p / N)      ceiling 1/(1-p)
 *   Gustafson (problem grown    S(N) = s + N (1 - s)              s measured on the
 *     with N, "scaled"):                                          N-processor run
 *   Karp-Flatt (from a          e(N) = (1/S - 1/N) / (1 - 1/N)    the serial fraction
 *     measured speedup S):                                        that explains S
 *
 * p = 0.95 gives a ceiling of 20x, 18.6x at N = 256 and 19.3x at N = 512.
 */
#ifndef PW_MODELS_H
#define PW_MODELS_H

double pw_amdahl(double p, double n);
double pw_amdahl_ceiling(double p);     /* 1 / (1 - p); infinite for p = 1 */
double pw_gustafson(double s, double n);
double pw_karp_flatt(double speedup, double n);   /* NaN for n <= 1 */
double pw_efficiency(double speedup, double n);   /* speedup / n */

/* Least-squares fit of Amdahl's p to measured (N, speedup) points.
 *
 * Amdahl is linear in p once written for time instead of speed:
 *   1/S = 1 - p (1 - 1/N),   i.e. y = p x with y = 1 - 1/S, x = 1 - 1/N,
 * so the least-squares p is sum(x y) / sum(x x), clamped to [0, 1]. Fitting
 * in time (1/S) weighs each point by the fraction of run time it explains,
 * which is what Amdahl is about; points at N = 1 carry no information (x = 0).
 * Returns p, or NaN if no point has N > 1. *rms_out (if not NULL) gets the
 * root-mean-square error of the fitted curve against the measured speedups. */
double pw_fit_parallel_fraction(const double *n, const double *speedup, int count,
                                double *rms_out);

#endif
