/* kernels/elementwise.h: the loops of chapter 01, one element at a time.
 *
 * Each kernel says its cost per element: flops (floating-point operations)
 * and bytes (compulsory memory traffic: each input read once, each output
 * written once). Rates are those counts divided by the time.
 *
 * Independent iterations: square, saxpy. Element i needs nothing from i-1,
 * so the compiler may do 8 or 16 at once (SIMD) and cores may split them.
 * Dependent iterations: sum_loop, running_sum. Each step needs the previous
 * step's result, so they run one add latency (about 4 cycles) per element
 * whatever the hardware. sum_split8 is sum_loop with the chain cut into
 * eight independent ones: the same answer up to rounding, 8x the parallelism.
 */
#ifndef PW_ELEMENTWISE_H
#define PW_ELEMENTWISE_H

#include <stddef.h>

/* y[i] = x[i]^2                  1 flop, 8 bytes (read x, write y) */
void square_loop(const float *x, float *y, size_t n);

/* y[i] = a*x[i] + y[i]           2 flops, 12 bytes (read x, read y, write y) */
void saxpy_loop(float a, const float *x, float *y, size_t n);

/* s = x[0] + x[1] + ...          1 flop, 4 bytes; one accumulator: a chain */
float sum_loop(const float *x, size_t n);

/* the same sum as 8 partial sums (i mod 8), combined at the end */
float sum_split8(const float *x, size_t n);

/* y[i] = y[i-1] + x[i]           1 flop, 8 bytes; each step waits for the last */
void running_sum(const float *x, float *y, size_t n);

/* References in double precision, for the checks. */
void square_ref(const float *x, float *y, size_t n);
void saxpy_ref(float a, const float *x, const float *y_in, float *y_out, size_t n);
double sum_ref(const float *x, size_t n);
void running_sum_ref(const float *x, float *y, size_t n);

#endif
