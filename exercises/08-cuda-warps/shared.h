/* exercises/08-cuda-warps/shared.h: what puzzle 8.11 asks you to write. */
#ifndef PW_EX_SHARED_H
#define PW_EX_SHARED_H

#include "simt.h"

/* Threads per block, fixed: a block's __shared__ array has this many floats. */
#define SHARED_TPB 8

/* Elements 2k and 2k + 1 are partners. out[i] = a[i] + a[i ^ 1] for i < n,
 * where a[n] (the partner of the last element when n is odd) counts as 0.
 * Each block passes its elements between partners through __shared__
 * memory: each thread reads one element from global memory. */
__global__ void shared_pairs(const float *a, float *out, int n);

/* Given (do not change it): ceil(n / SHARED_TPB) blocks of SHARED_TPB threads. */
PW_SIMT_EXTERN_C void shared_launch(const float *d_a, float *d_out, int n);

#endif
