/* exercises/02-simd/leaky_relu.h: what exercise 2.1 asks you to write.
 *
 * Your exercises/02-simd/leaky_relu.c implements it; the checker
 * (check_leaky_relu.c) and the solution include this same header. */
#ifndef PW_EX_LEAKY_RELU_H
#define PW_EX_LEAKY_RELU_H

#include <stddef.h>

/* y[i] = x[i] > 0 ? x[i] : alpha * x[i] for i = 0 .. n-1, four floats per
 * instruction (SSE2 on x86-64, NEON on AArch64) with a mask instead of a
 * branch, and a scalar loop for the last n mod 4. Nothing else in y is
 * touched; x and y do not overlap; n may be 0. */
void leaky_relu(const float *x, float *y, size_t n, float alpha);

#endif
