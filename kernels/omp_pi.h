/* kernels/omp_pi.h: pi as an integral, the OpenMP way.
 *
 * The same midpoint-rule sum as chapter 03 (kernels/pi.h: the integral, its
 * cost of PI_FLOPS_PER_STEP = 6 flops per step, the sequential reference
 * pi_seq and the error bound pi_tolerance), with the threads made by one
 * pragma instead of by hand: chapter 03 starts threads, hands each a block,
 * joins them and adds the partial sums; here `parallel for reduction(+:s)`
 * does all of that.
 */
#ifndef PW_OMP_PI_H
#define PW_OMP_PI_H

#include "pi.h"

/* The sequential loop plus one pragma: each thread sums its share in a
 * private s, and the runtime adds the shares at the end. Threads: as many
 * as omp_set_num_threads last set. */
double pi_integral_omp(long long n);

#endif
