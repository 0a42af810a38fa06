/* common/simt/cuda/cuda.h: the stand-in for CUDA's <cuda.h> on the SIMT emulator.
 * The driver API (cuInit, cuModuleLoad, CUresult...) is not emulated; what
 * programs include cuda.h for besides, the runtime API and the version
 * macro, comes with simt.h. */
#ifndef PW_CUDA_CUDA_H
#define PW_CUDA_CUDA_H
#include "simt.h"
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif
#endif
