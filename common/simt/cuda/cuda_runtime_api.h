/* common/simt/cuda/cuda_runtime_api.h: the stand-in for CUDA's <cuda_runtime_api.h> on the SIMT emulator
 * (common/simt/cuda/ is on the include path of emulator builds only): all of
 * what it declares comes with simt.h (the runtime API, the kernel
 * language, vector types, math and integer intrinsics: simt_cuda.h). */
#ifndef PW_CUDA_CUDA_RUNTIME_API_H
#define PW_CUDA_CUDA_RUNTIME_API_H
#include "simt.h"
#endif
