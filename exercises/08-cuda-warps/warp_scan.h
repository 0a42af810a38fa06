/* exercises/08-cuda-warps/warp_scan.h: what exercise 8.2 asks you to write. */
#ifndef PW_EX_WARP_SCAN_H
#define PW_EX_WARP_SCAN_H

#include "simt.h"

/* Inclusive prefix sum within each group of 32 consecutive elements (one
 * warp's): out[i] = in[32*(i/32)] + ... + in[i]. Elements past n count as 0;
 * out has n elements. Registers and shuffles only: no shared memory. */
__global__ void warp_scan(const int *in, int *out, int n);

/* Launch warp_scan on n elements with `block` threads per block (a multiple of 32). */
PW_SIMT_EXTERN_C void warp_scan_launch(const int *d_in, int *d_out, int n, int block);

#endif
