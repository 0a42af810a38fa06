/* kernels/warps.cuh: the kernels of chapter 08 (CUDA warps), in kernels/warps.cu.
 *
 * Each comment says what the kernel shows and, where a count is the point,
 * what the emulator counts for one warp. Counts in bytes and flops are next
 * to the definitions. Buffers are device memory (cudaMalloc); n is the
 * number of elements. */
#ifndef PW_WARPS_CUH
#define PW_WARPS_CUH

#include "simt.h"

/* Three floats per element: an array of structs (AoS). */
typedef struct { float x, y, z; } particle;

/* Grid, block, warp, lane: who ran element i. */
__global__ void whoami(int *block, int *warp, int *lane, int n);

/* Divergence: the same work on both sides of a branch; the branch is on
 * lane parity (both sides run, one after the other: half the lanes idle)
 * or on the warp index (each warp takes one side: no lane idle). */
__global__ void branch_on_lane(const float *x, float *y, int n, int iters);
__global__ void branch_on_warp(const float *x, float *y, int n, int iters);

/* Coalescing: out[i] = in[(i * stride) mod n]. Stride 1 reads 4 sectors per
 * warp (128 contiguous bytes), stride 32 reads 32. */
__global__ void copy_stride(const float *in, float *out, int n, int stride);
/* Reading one field of 3: AoS reads 12 sectors per warp, SoA 4. */
__global__ void scale_x_aos(const particle *p, float *out, int n);
__global__ void scale_x_soa(const float *x, float *out, int n);

/* Transpose of a rows x cols matrix (out is cols x rows), 32x32 tiles,
 * blocks of 32x8 threads (each thread does 4 rows of its tile). */
enum { TILE = 32, TILE_ROWS = 8 };
__global__ void transpose_naive(const float *in, float *out, int rows, int cols);
__global__ void transpose_shared(const float *in, float *out, int rows, int cols);
__global__ void transpose_padded(const float *in, float *out, int rows, int cols);

/* The reduction ladder: each block writes the sum of its part to
 * partial[blockIdx.x]; the host adds the partials. Dynamic shared memory:
 * blockDim.x floats (rungs 0-4) or 32 floats (rung 5). Rungs 0-4 need a
 * power-of-two block of at least 64 threads; rung 5 any multiple of 32. */
__global__ void reduce_interleaved(const float *in, float *partial, int n);
__global__ void reduce_strided_index(const float *in, float *partial, int n);
__global__ void reduce_sequential(const float *in, float *partial, int n);
__global__ void reduce_first_add(const float *in, float *partial, int n);
__global__ void reduce_warp_shuffle(const float *in, float *partial, int n);
__global__ void reduce_many(const float *in, float *partial, int n);

/* Vote: how many x[i] > threshold, one atomic per warp (a ballot and a
 * popcount) or one per matching element. */
__global__ void count_ballot(const float *x, int n, float threshold, int *count);
__global__ void count_atomic(const float *x, int n, float threshold, int *count);

/* The emulator's benchmark: `rounds` barriers per thread. */
__global__ void barrier_loop(int *out, int rounds);
/* ... and `rounds` global loads per thread, one store. */
__global__ void access_loop(const float *x, float *out, int n, int rounds);


#endif
