/* common/simt/cuda/vector_types.h: the stand-in for CUDA's <vector_types.h> on the SIMT emulator
 * (common/simt/cuda/ is on the include path of emulator builds only): all of
 * what it declares comes with simt.h (the runtime API, the kernel
 * language, vector types, math and integer intrinsics: simt_cuda.h). */
#ifndef PW_CUDA_VECTOR_TYPES_H
#define PW_CUDA_VECTOR_TYPES_H
#include "simt.h"
#endif
