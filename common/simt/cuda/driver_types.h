/* common/simt/cuda/driver_types.h: the stand-in for CUDA's <driver_types.h>
 * on the SIMT emulator: the runtime's types: error codes, copy kinds, the
 * device's properties (common/simt/simt_cuda_types.h), from simt.h. Defines
 * the real header's include guard, __DRIVER_TYPES_H__, which helper code may
 * test. */
#if !defined(__DRIVER_TYPES_H__)
#define __DRIVER_TYPES_H__
#include "simt.h"
#endif
