/* common/simt/cuda/vector_functions.h: the stand-in for CUDA's
 * <vector_functions.h> on the SIMT emulator: make_float4, make_int2...
 * (simt_cuda_math.h), from simt.h. Defines the real header's include guard,
 * __VECTOR_FUNCTIONS_H__, which helper code may test. */
#if !defined(__VECTOR_FUNCTIONS_H__)
#define __VECTOR_FUNCTIONS_H__
#include "simt.h"
#endif
