/* kernels/gemm_gpu.cuh: the GPU GEMM ladder of chapter 09 (Tensor Cores), in
 * kernels/gemm_gpu.cu.
 *
 * C = A B, all row-major: A is m x k, B is k x n, C is m x n (float). A and B
 * hold the rung's input type (float for rungs 1-7, __half or __nv_bfloat16
 * for rungs 8-9, float, __half or __nv_bfloat16 for rung 0). Buffers are
 * device memory (cudaMalloc). Each rung's comment in gemm_gpu.cu says why it
 * beats the one below, with the counts the emulator gives at 256^3.
 *
 *   0 cublas         cublasSgemm / cublasGemmEx (GPU build only: the yardstick)
 *   1 naive          a thread per C element, thread x -> row (uncoalesced)
 *   2 coalesced      thread x -> column: a warp reads one row of B
 *   3 smem           32x32 tiles of A and B in shared memory
 *   4 reg1d          64x64 tiles, 8 outputs of one column per thread
 *   5 reg2d          128x128 tiles, 8x8 outputs per thread
 *   6 vec4           float4 loads, A's tile transposed in shared memory
 *   7 warptile       each warp a 64x64 tile as 4 sub-tiles of 64x16, 8x4 outputs a lane in each
 *   8 wmma_global    a warp per 16x16 C tile, fragments straight from global
 *   9 wmma_shared    64x64 tiles staged in shared memory, 2x2 fragments a warp
 */
#ifndef PW_GEMM_GPU_CUH
#define PW_GEMM_GPU_CUH

#include "simt.h"

/* C linkage: the C checkers of chapter 09's exercises launch rungs too
 * (exercises/09-tensor-cores/check_reg_tile.c models its rungs 3 and 5
 * beside the learner's kernel). */
#ifdef __cplusplus
extern "C" {
#endif

typedef enum { GG_CUBLAS = 0, GG_NAIVE, GG_COALESCED, GG_SMEM, GG_REG1D, GG_REG2D, GG_VEC4, GG_WARPTILE,
               GG_WMMA_GLOBAL, GG_WMMA_SHARED, GG_NRUNGS } gg_rung;
typedef enum { GG_F32, GG_F16, GG_BF16 } gg_type;

const char *gg_rung_name(gg_rung r);          /* "0_cublas", "1_naive", ..., "9_wmma_shared" */
const char *gg_rung_params(gg_rung r);        /* its launch in one line: block, tile, per-thread outputs */
const char *gg_type_name(gg_type t);          /* "fp32", "fp16", "bf16" */
size_t gg_type_size(gg_type t);               /* bytes per element: 4 or 2 */
int gg_rung_takes(gg_rung r, gg_type t);      /* 1 if the rung runs with inputs of type t */
int gg_rung_tensor(gg_rung r);                /* 1 for the WMMA rungs (8, 9) */

/* Launch rung r (no sync, no error check: the caller does pw_cuda_sync_check).
 * GG_WMMA_GLOBAL needs m, n, k multiples of 16 (the caller pads: the lesson);
 * every other rung takes any m, n, k >= 1. Returns cudaErrorNotSupported for
 * GG_CUBLAS on the emulator and for an (r, t) pair the rung does not take,
 * cudaErrorInvalidValue for sizes it cannot take. */
cudaError_t gg_launch(gg_rung r, gg_type t, int m, int n, int k, const void *dA, const void *dB, float *dC);

/* The launch of rung r at m x n x k: the grid's blocks, threads per block, and dynamic shared bytes
   (static shared memory is counted by the emulator). kernel: the kernel's name exactly as gg_launch
   writes it before <<< ("gg_naive", "gg_wmma_shared<__half>"), the text the emulator records.
   All zero and kernel "" where gg_launch would not launch a kernel of its own (GG_CUBLAS, a pair the
   rung does not take, sizes it refuses). */
typedef struct { long long blocks; int threads; int dyn_smem; const char *kernel; } gg_shape;
gg_shape gg_launch_shape(gg_rung r, gg_type t, int m, int n, int k);

/* fp32 -> fp16/bf16 on the device, rounding to nearest even as __float2half /
 * __float2bfloat16 do, into a rows x cols buffer with leading dimension
 * ld >= cols whose extra columns and rows up to pad_rows are zero. With
 * t = GG_F32 it copies (and pads) floats. No sync. */
void gg_convert(gg_type t, const float *src, int rows, int cols, void *dst, int pad_rows, int ld);

/* GPU build: releases rung 0's cuBLAS handle (created at its first use).
 * Harmless to call on the emulator or when rung 0 never ran. */
void gg_shutdown(void);

#ifdef __cplusplus
}
#endif

#endif
