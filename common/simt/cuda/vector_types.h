/* common/simt/cuda/vector_types.h: the stand-in for CUDA's <vector_types.h>
 * on the SIMT emulator: dim3, uint3 and the vector types (float4, int2...:
 * simt_cuda_math.h in C++), from simt.h. Defines the real header's include
 * guard, __VECTOR_TYPES_H__, which helper code may test. */
#if !defined(__VECTOR_TYPES_H__)
#define __VECTOR_TYPES_H__
#include "simt.h"
#endif
