/* exercises/02-simd/sumsq.h: what exercise 2.2 asks you to write.
 *
 * Your exercises/02-simd/sumsq.c implements it; the checker
 * (check_sumsq.c) and the solution include this same header. */
#ifndef PW_EX_SUMSQ_H
#define PW_EX_SUMSQ_H

#include <stddef.h>

/* x[0]^2 + x[1]^2 + ... + x[n-1]^2, in float, written so that the compiler
 * vectorises it (several partial sums). n may be 0 (the sum is then 0). */
float sumsq(const float *x, size_t n);

#endif
