/* exercises/08-cuda-warps/pool.h: what puzzle 8.12 asks you to write. */
#ifndef PW_EX_POOL_H
#define PW_EX_POOL_H

#include "simt.h"

/* out[i] = a[i - 2] + a[i - 1] + a[i] for i < n, where the terms before
 * a[0] are 0 (out[0] = a[0], out[1] = a[0] + a[1]): a running sum over a
 * window of 3 that ends at i. One block of exactly n threads, one element
 * each; the launch gives the block n floats of dynamic shared memory. */
__global__ void pool(const float *a, float *out, int n);

/* Given (do not change it): one block of n threads, n <= 1024, with
 * n * sizeof(float) bytes of dynamic shared memory. */
PW_SIMT_EXTERN_C void pool_launch(const float *d_a, float *d_out, int n);

#endif
