/* exercises/08-cuda-warps/guards.h: what puzzle 8.7 asks you to write. */
#ifndef PW_EX_GUARDS_H
#define PW_EX_GUARDS_H

#include "simt.h"

/* out[i] = a[i] + 10 for i < n. The launch has more threads than elements:
 * a thread with no element (i >= n) reads nothing and writes nothing. */
__global__ void guards(const float *a, float *out, int n);

/* Whole warps: n rounded up to a multiple of 32 (32 threads for n = 5). */
#define GUARDS_THREADS(n) (((n) + 31) / 32 * 32)

/* Given (do not change it): one block of GUARDS_THREADS(n) threads, n <= 1024. */
PW_SIMT_EXTERN_C void guards_launch(const float *d_a, float *d_out, int n);

#endif
