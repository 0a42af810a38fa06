/* exercises/08-cuda-warps/dot.h: what puzzle 8.13 asks you to write. */
#ifndef PW_EX_DOT_H
#define PW_EX_DOT_H

#include "simt.h"

/* out[0] = a[0] b[0] + a[1] b[1] + ... + a[n-1] b[n-1]: the dot product of
 * two vectors of n, in one block of exactly n threads with n floats of
 * dynamic shared memory. out has one element. */
__global__ void dot(const float *a, const float *b, float *out, int n);

/* Given (do not change it): one block of n threads, n <= 1024, with
 * n * sizeof(float) bytes of dynamic shared memory. */
PW_SIMT_EXTERN_C void dot_launch(const float *d_a, const float *d_b, float *d_out, int n);

#endif
