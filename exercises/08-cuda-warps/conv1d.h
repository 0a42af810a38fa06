/* exercises/08-cuda-warps/conv1d.h: what puzzle 8.14 asks you to write. */
#ifndef PW_EX_CONV1D_H
#define PW_EX_CONV1D_H

#include "simt.h"

/* out[i] = a[i] b[0] + a[i + 1] b[1] + ... + a[i + k - 1] b[k - 1] for
 * i < n, where the terms past a[n - 1] are 0: a window of k weights b
 * slid along a (k >= 1, k <= blockDim.x). Blocks of B threads, one output
 * each, ceil(n / B) of them; each block gets B + 2k - 1 floats of dynamic
 * shared memory: room for its B elements of a, the k - 1 after them (the
 * halo) and the k weights. */
__global__ void conv1d(const float *a, const float *b, float *out, int n, int k);

/* Given (do not change it): ceil(n / block) blocks of `block` threads,
 * (block + 2k - 1) * sizeof(float) bytes of dynamic shared memory each. */
PW_SIMT_EXTERN_C void conv1d_launch(const float *d_a, const float *d_b, float *d_out, int n, int k, int block);

#endif
