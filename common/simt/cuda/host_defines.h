/* common/simt/cuda/host_defines.h: the stand-in for CUDA's <host_defines.h> on the SIMT emulator
 * (common/simt/cuda/ is on the include path of emulator builds only): all of
 * what it declares comes with simt.h (the runtime API, the kernel
 * language, vector types, math and integer intrinsics: simt_cuda.h). It
 * defines the real header's guard, __HOST_DEFINES_H__, as NVIDIA's
 * cuda_runtime_api.h brings it in (tests/tool_cuda_surface.sh compares). */
#if !defined(__HOST_DEFINES_H__)
#define __HOST_DEFINES_H__
#include "simt.h"
#endif
