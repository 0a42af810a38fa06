/* exercises/08-cuda-warps/prefix_sum.h: what puzzle 8.15 asks you to write. */
#ifndef PW_EX_PREFIX_SUM_H
#define PW_EX_PREFIX_SUM_H

#include "simt.h"

/* A block-wise inclusive scan: blocks of B threads, ceil(n / B) of them,
 * one element each; in the block that starts at element s = blockIdx.x B,
 * out[i] = a[s] + a[s + 1] + ... + a[i] for every i < n (each block's sums
 * start again from its own first element). Each block gets 2B floats of
 * dynamic shared memory. */
__global__ void prefix_sum(const float *a, float *out, int n);

/* Given (do not change it): ceil(n / block) blocks of `block` threads,
 * 2 * block * sizeof(float) bytes of dynamic shared memory each. */
PW_SIMT_EXTERN_C void prefix_sum_launch(const float *d_a, float *d_out, int n, int block);

#endif
