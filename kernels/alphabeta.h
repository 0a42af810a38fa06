/* kernels/alphabeta.h: fitting the alpha-beta model t(n) = alpha + n*beta to
 * measured message times (chapter 10's mpi_model: a ping-pong over MPI).
 *
 * The fit minimises the squared *relative* residuals, sum ((t_i - alpha -
 * beta n_i) / t_i)^2: a ping-pong spans 1 byte to 64 MiB, 5 decades of time,
 * and an ordinary least-squares line would be set by the largest sizes alone
 * (its alpha could come out negative, a 1-byte message taking less than no
 * time). Weighted by 1/t_i^2 every size counts as much as every other, so a
 * miss of 30% at 1 byte weighs what a miss of 30% at 64 MiB weighs.
 *
 * One line rarely fits a real transport: Open MPI's shared-memory BTL copies
 * messages up to its eager limit (4 KiB by default) through a shared buffer
 * and switches to a rendezvous (a handshake, then one copy) above it; past
 * the caches the copy rate drops again. ab_fit_two_segments finds the split
 * that two separate lines fit best, which names where one line fails. */
#ifndef PW_ALPHABETA_H
#define PW_ALPHABETA_H

#include <stddef.h>

typedef struct {
    double alpha;       /* s */
    double beta;        /* s per byte */
    double rms_rel;     /* root-mean-square relative residual (0.1 = 10%) */
    double max_rel;     /* largest |relative residual| */
    int worst;          /* index of that point */
} ab_line;

/* The weighted fit over points lo..hi-1 of n[] (bytes) and t[] (s, > 0).
 * Needs at least 2 distinct sizes; returns 0, or -1 (line untouched). */
int ab_fit(const double *n, const double *t, int lo, int hi, ab_line *out);

/* Relative residual of point i: (alpha + beta n - t) / t (0.25: the line
 * says 25% more than was measured). */
double ab_residual(const ab_line *l, double n, double t);

/* The best split k (each side at least min_points points) of points 0..count-1
 * into two lines, fitted on 0..k-1 and k..count-1: the one with the smallest
 * total squared relative residual. Returns k, or -1 when count is too small. */
int ab_fit_two_segments(const double *n, const double *t, int count, int min_points, ab_line *below, ab_line *above);

#endif
