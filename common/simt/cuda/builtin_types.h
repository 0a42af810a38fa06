/* common/simt/cuda/builtin_types.h: the stand-in for CUDA's <builtin_types.h> on the SIMT emulator:
 * the runtime's types (driver_types.h) and the vector types, from simt.h. */
#ifndef PW_CUDA_BUILTIN_TYPES_H
#define PW_CUDA_BUILTIN_TYPES_H
#include "driver_types.h"
#include "vector_types.h"
#endif
