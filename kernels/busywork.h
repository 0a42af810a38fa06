/* kernels/busywork.h: compute-bound work of a chosen size, cut into pieces
 * that cost the same wherever they run.
 *
 * Each element runs `iters` steps of v = v * a + b (a chain, so the work
 * cannot be vectorised across steps and costs the same on every core):
 * 2 flops per step. The element's result depends only on its own input,
 * so any split over threads gives bit-identical output: the check is exact.
 */
#ifndef PW_BUSYWORK_H
#define PW_BUSYWORK_H

#include <stddef.h>

/* y[i] = iterate(x[i]) for i in [lo, hi)          2 * iters flops per element */
void busy_work(const float *x, float *y, size_t lo, size_t hi, int iters);

/* The sequential reference: the same, written on its own. */
void busy_work_ref(const float *x, float *y, size_t n, int iters);

#endif
