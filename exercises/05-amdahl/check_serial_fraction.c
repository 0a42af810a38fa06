/* exercises/05-amdahl/check_serial_fraction.c: the checker of exercise 5.1.
 *
 * Built with your exercises/05-amdahl/serial_fraction.c by `make ex-5.1`, or
 * with the solution by `make solution-5.1`. It makes the timings of programs
 * whose serial fraction it knows, T(N) = T1 (s + (1 - s) / N): exact ones
 * (1, 2, 4, 8, 16 threads; 1, 2, 4 at s = 0 and 1; 1, 3, 5, 7), where the
 * estimate must be within 1e-6 of s, then noisy ones, where it must be
 * within a tolerance worked out below from the noise and the number of runs.
 *
 * The noisy cases: every run but the 1-thread one is off by a relative
 * error e_N, uniform in [-2%, +2%] from a fixed seed (standard deviation
 * sd = 0.02 / sqrt(3) = 0.01155), on 16 runs (1 to 16 threads), in order and
 * shuffled, on the 8 odd counts 1 to 15, and on 32 runs.
 *
 * Why T1 is left exact: its error e_1 moves every estimate that divides by
 * T1, by about -e_1 (T(N)/T1) / (1 - 1/N); no number of other runs averages
 * it out, so it would widen the tolerance for a fit and for one run alike
 * and the cases could not tell them apart (with T1 noisy as well, the old
 * tolerance of 0.02 passed an estimate from the 1- and 16-thread runs alone).
 *
 * The tolerance, per case. The least-squares fit the exercise asks for (the
 * hints: p = sum(x y) / sum(x x), x = 1 - 1/N, y = 1 - T(N)/T1, s = 1 - p)
 * sees y_N = 1 - r_N (1 + e_N) with r_N = s + (1 - s)/N, so its error is
 * exactly linear in the noise (T1 is exact):
 *     s_fit - s = sum_N w_N e_N,   w_N = x_N r_N / sum_M x_M^2,
 * a sum of independent terms with standard deviation
 *     sd_fit = sd * sqrt(sum_N w_N^2),
 * which shrinks like 1/sqrt(runs). The tolerance is 3 sd_fit (a fit misses
 * by more on about 0.3% of draws; these draws are fixed, and the checker
 * makes sure the model fit is inside it on each). For 1-16 threads at
 * s = 0.05 that is 0.0020; at 0.30, 0.0042; odd counts at 0.5, 0.0086.
 * One run's estimate, (T(N)/T1 - 1/N) / (1 - 1/N), is off by e_N r_N / x_N:
 * at N = 16 and s = 0.3, up to 0.02 * 0.344 / 0.9375 = 0.0073, so the best
 * single run fails where its noise is above about 1.1% (about half the
 * draws: a 16-run case fails the 16-thread run alone with a chance of
 * 0.13 at s = 0.05 to 0.49 at s = 0.9, a 32-run one 0.52 to 0.67, by
 * simulation). So the checker makes sure that these fixed draws (seed
 * 1234 + 1000 s, as before) fail it on at least one case, or it says that
 * it cannot grade: here it fails on the shuffled and the 32-run case. The
 * estimate from the 2-thread run alone is off by up to
 * 0.02 * 0.65 / 0.5 = 0.026 at s = 0.3, and fails 4 of the 5 cases.
 * Other fits over every run (on the times, on the speedups, weighted, the
 * mean or the median of the one-run estimates) are within it on every case.
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "serial_fraction.h"
#include "util.h"

#define MAX_RUNS 32
#define NOISE 0.02   /* relative amplitude of the noise on each time but T1 */

typedef struct {
    const char *name;
    int threads[MAX_RUNS];
    int count;
    double s;          /* the truth */
    bool noisy;
    uint64_t seed;
} program;

static int failures;
static bool one_run_fails;   /* some noisy case fails the best single run's estimate */

static double ratio(double s, int n) { return s + (1 - s) / n; }   /* T(N) / T1 */

static void make_times(const program *p, double *seconds)
{
    float u[MAX_RUNS];
    pw_fill_random(u, MAX_RUNS, p->seed, -1.0f, 1.0f);
    for (int i = 0; i < p->count; i++) {
        double e = p->noisy && p->threads[i] != 1 ? NOISE * u[i] : 0;
        seconds[i] = 2.5 * ratio(p->s, p->threads[i]) * (1 + e);   /* T1 = 2.5 s */
    }
}

/* 3 standard deviations of the least-squares fit's error (see the top). */
static double fit_tolerance(const program *p)
{
    double sxx = 0, sww = 0;
    for (int i = 0; i < p->count; i++) {
        double x = 1.0 - 1.0 / p->threads[i];
        sxx += x * x;
    }
    for (int i = 0; i < p->count; i++) {
        double x = 1.0 - 1.0 / p->threads[i], w = x * ratio(p->s, p->threads[i]) / sxx;
        sww += w * w;
    }
    return 3 * (NOISE / sqrt(3.0)) * sqrt(sww);
}

/* The fit the exercise asks for, and the estimate from T1 and one run. */
static double model_fit(const program *p, const double *t)
{
    double t1 = 0, sxy = 0, sxx = 0;
    for (int i = 0; i < p->count; i++)
        if (p->threads[i] == 1) t1 = t[i];
    for (int i = 0; i < p->count; i++) {
        double x = 1.0 - 1.0 / p->threads[i], y = 1.0 - t[i] / t1;
        sxy += x * y;
        sxx += x * x;
    }
    return 1.0 - sxy / sxx;
}
static double one_run(const program *p, const double *t, int i)
{
    double t1 = 0;
    for (int k = 0; k < p->count; k++)
        if (p->threads[k] == 1) t1 = t[k];
    double n = p->threads[i];
    return (t[i] / t1 - 1 / n) / (1 - 1 / n);
}

static void try_program(const program *p)
{
    double seconds[MAX_RUNS];
    make_times(p, seconds);
    double tol = p->noisy ? fit_tolerance(p) : 1e-6;
    if (p->noisy) {
        /* The case itself: the fit must pass it, and some single run fail it. */
        double fit = model_fit(p, seconds);
        if (fabs(fit - p->s) > tol) {
            printf("FAIL: checker defect: the least-squares fit is off by %.4f on '%s', outside its own 3-sd "
                   "tolerance %.4f: this draw cannot grade\n", fit - p->s, p->name, tol);
            exit(2);
        }
        int imax = 0;
        for (int i = 1; i < p->count; i++)
            if (p->threads[i] > p->threads[imax]) imax = i;
        if (fabs(one_run(p, seconds, imax) - p->s) > tol) one_run_fails = true;
    }
    double got = estimate_serial_fraction(p->threads, seconds, p->count);
    printf("  %-46s s = %.3f: you said %.4f ", p->name, p->s, got);
    if (fabs(got - p->s) <= tol) {
        if (p->noisy) printf("ok (within %.4f)\n", tol);
        else printf("ok\n");
        return;
    }
    failures++;
    printf("wrong\n");
    int alone = -1;   /* the run whose estimate, with T1's, is the answer given */
    for (int i = 0; i < p->count; i++)
        if (p->threads[i] != 1 && fabs(got - one_run(p, seconds, i)) <= 1e-9) alone = i;
    if (isnan(got))
        printf("FAIL: the estimate is NaN: a division by zero? (the 1-thread run gives x = 1 - 1/1 = 0)\n");
    else if (fabs(got - (1 - p->s)) <= tol)
        printf("FAIL: you returned p = 1 - s, the parallel fraction: the exercise wants s, the serial one\n");
    else if (p->threads[0] != 1 && fabs(got - p->s) > 0.1)
        printf("FAIL: off by %.3f when the 1-thread run is not first: look for threads[i] == 1\n", got - p->s);
    else if (alone >= 0)
        printf("FAIL: off by %+.4f on '%s' (allowed %.4f, 3 sd of a fit over its %d runs): that is the estimate "
               "from the runs on 1 and %d threads alone\n"
               "  it carries all of that one run's noise (%+.1f%% here); fit s over every run, and the noise of\n"
               "  %d runs averages down (the tolerance is that of a least-squares fit over them all)\n",
               got - p->s, p->name, tol, p->count, p->threads[alone], 100 * (seconds[alone] /
               (2.5 * ratio(p->s, p->threads[alone])) - 1), p->count);
    else
        printf("FAIL: off by %+.4f on '%s' (allowed %s%.2g): is T(N)/T1 = s + (1 - s)/N solved for s, over all runs?\n",
               got - p->s, p->name, p->noisy ? "3 sd of a least-squares fit, " : "", tol);
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    /* The seeds of the noisy cases: see the top for why these draws. */
    static const program programs[] = {
        { "exact, 1-16 threads", { 1, 2, 4, 8, 16 }, 5, 0.10, false, 0 },
        { "exact, all parallel", { 1, 2, 4 }, 3, 0.0, false, 0 },
        { "exact, all serial", { 1, 2, 4 }, 3, 1.0, false, 0 },
        { "exact, odd counts 1, 3, 5, 7", { 1, 3, 5, 7 }, 4, 0.25, false, 0 },
        { "2% noise, 1-16 threads", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 }, 16, 0.05, true, 1284 },
        { "2% noise, 1-16 threads", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 }, 16, 0.30, true, 1534 },
        { "2% noise, 1-16 threads shuffled (16, 1, 9 ...)",
          { 16, 1, 9, 4, 13, 2, 11, 6, 15, 8, 3, 12, 5, 14, 7, 10 }, 16, 0.10, true, 1334 },
        { "2% noise, odd counts (7, 3, 15, 1 ...)", { 7, 3, 15, 1, 11, 5, 13, 9 }, 8, 0.50, true, 1734 },
        { "2% noise, 1-32 threads", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
          22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 }, 32, 0.70, true, 1934 },
    };
    const int np = (int)(sizeof programs / sizeof programs[0]);
    printf("exercise 5.1: estimate_serial_fraction() on %d programs of known s\n", np);
    printf("  (noisy: every run but T1 off by up to 2%%; allowed: 3 standard deviations of a least-squares fit)\n");
    for (int i = 0; i < np; i++) try_program(&programs[i]);
    if (!one_run_fails) {
        printf("FAIL: checker defect: on every noisy case the largest run alone is within the tolerance, so these "
               "draws cannot tell a fit from one run\n");
        return 2;
    }
    if (failures) {
        printf("FAIL: %d of %d estimates were off\n", failures, np);
        return 1;
    }
    return pw_ex_pass("every serial fraction recovered (exact within 1e-6, noisy within 3 sd of a least-squares fit)");
}
