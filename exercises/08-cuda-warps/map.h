/* exercises/08-cuda-warps/map.h: what puzzle 8.5 asks you to write. */
#ifndef PW_EX_MAP_H
#define PW_EX_MAP_H

#include "simt.h"

/* out[i] = a[i] + 10 for i < n, one thread per element: the launch has
 * exactly n threads, in one block. */
__global__ void map(const float *a, float *out, int n);

/* Given (do not change it): one block of n threads, n <= 1024. */
PW_SIMT_EXTERN_C void map_launch(const float *d_a, float *d_out, int n);

#endif
