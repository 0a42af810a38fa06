/* common/simt/cuda/cuda.h: the stand-in for CUDA's <cuda.h> on the SIMT emulator.
 * The driver API (cuInit, cuModuleLoad, CUresult...) is not emulated; what
 * programs include cuda.h for besides, the runtime API and the version
 * macro, comes with simt.h. */
#ifndef __cuda_cuda_h__   /* the real header's guard */
#define __cuda_cuda_h__
#include "simt.h"
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif
#endif
