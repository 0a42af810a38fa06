/* common/simt/cuda/cuda_runtime_api.h: the stand-in for CUDA's <cuda_runtime_api.h> on the SIMT emulator:
 * the runtime API and its types, from simt.h (CUDART_VERSION, the version
 * whose names, values and fields it follows: common/simt/simt_cuda_types.h).
 * Defines the guards of what the real one includes (host_defines.h, builtin_types.h). */
#if !defined(__CUDA_RUNTIME_API_H__)
#define __CUDA_RUNTIME_API_H__
#include "host_defines.h"
#include "builtin_types.h"
#include "simt.h"
#endif
