/* exercises/08-cuda-warps/zip.h: what puzzle 8.6 asks you to write. */
#ifndef PW_EX_ZIP_H
#define PW_EX_ZIP_H

#include "simt.h"

/* out[i] = a[i] + b[i] for i < n, one thread per element: the launch has
 * exactly n threads, in one block. */
__global__ void zip(const float *a, const float *b, float *out, int n);

/* Given (do not change it): one block of n threads, n <= 1024. */
PW_SIMT_EXTERN_C void zip_launch(const float *d_a, const float *d_b, float *d_out, int n);

#endif
