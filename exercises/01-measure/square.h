/* exercises/01-measure/square.h: what exercise 1.1 asks you to write.
 *
 * Your exercises/01-measure/square.c implements both functions; the checker
 * (check_square.c) and the solution include this same header. */
#ifndef PW_EX_SQUARE_H
#define PW_EX_SQUARE_H

#include <stddef.h>

/* y[i] = x[i] * x[i] for i = 0 .. n-1; nothing else in y is touched.
 * x and y do not overlap; n may be 0. */
void square(const float *x, float *y, size_t n);

/* What one call square(x, y, n) costs: *flops = floating-point operations,
 * *bytes = compulsory memory traffic (each input read once, each output
 * written once). */
void square_counts(size_t n, double *flops, double *bytes);

#endif
