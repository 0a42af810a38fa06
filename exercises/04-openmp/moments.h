/* exercises/04-openmp/moments.h: exercise 4.3, a bug hunt (see README.md).
 *
 * The statistics library (given; the checker links its own copy): Welford's
 * one-pass mean and variance, and the merge of two partial results (Chan,
 * Golub and LeVeque), which lets threads summarise parts of an array
 * separately. Your exercises/04-openmp/moments.c is the program that uses
 * it: moments_omp(), which is said to work but has one bug. The checker
 * (check_moments.c) and the solution include this same header. */
#ifndef PW_EX_MOMENTS_H
#define PW_EX_MOMENTS_H

#include <stddef.h>

/* The running statistics of the values pushed so far. */
typedef struct {
    long long n;    /* how many */
    double mean;    /* their mean */
    double m2;      /* the sum of squared differences from the mean: variance = m2 / (n - 1) */
} welford;

/* Add x to w (w starts as all zeros: no values). */
void welford_push(welford *w, double x);

/* The statistics of the values of a and of b together. */
welford welford_merge(welford a, welford b);

#define MOMENTS_MAX_THREADS 64

/* The statistics of x[0 .. n-1], computed by an OpenMP loop on `threads`
 * threads (1 to MOMENTS_MAX_THREADS), each value pushed exactly once. The
 * result is the same as pushing them all in order, up to rounding. n may
 * be 0. */
welford moments_omp(const double *x, size_t n, int threads);

#endif
