/* exercises/08-cuda-warps/quantize.h: the interface of exercise 8.4, a bug
 * hunt. exercises/08-cuda-warps/quantize.cu implements it (with one bug);
 * the checker (check_quantize.c) and the solution include this same header. */
#ifndef PW_EX_QUANTIZE_H
#define PW_EX_QUANTIZE_H

#include "simt.h"

/* Block-wise int8 quantisation, the way weights and activations are packed
 * for inference: the array is cut into blocks of B = blockDim.x elements (a
 * power of two from 32 to 1024; the last block may be partial), and block b
 * gets one scale,
 *   scale[b] = max |x[i]| over the block / 127   (0 for a block of zeros),
 * and every element a code q[i] = x[i] / scale[b] rounded to the nearest
 * whole number, in -127 .. 127 (0 where the scale is 0), so that
 * q[i] * scale[b] is within scale[b] / 2 of x[i]. Shared memory: B floats
 * (dynamic). Every element of x is read from global memory once. */
__global__ void quantize(const float *x, signed char *q, float *scale, int n);

/* Launch quantize on n elements (device pointers) with `block` threads per
 * block: one block per B elements, and B floats of shared memory. */
PW_SIMT_EXTERN_C void quantize_launch(const float *d_x, signed char *d_q, float *d_scale, int n, int block);

#endif
