/* common/simt/cuda/cuda_profiler_api.h: the stand-in for CUDA's
 * <cuda_profiler_api.h> on the SIMT emulator: there is no profiler to
 * start, so both calls succeed and do nothing. */
#if !defined(__CUDA_PROFILER_API_H__)   /* the real header's guard */
#define __CUDA_PROFILER_API_H__
#include "simt.h"
static inline cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
static inline cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
#endif
