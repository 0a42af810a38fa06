/* common/simt/cuda/cuda_runtime.h: the stand-in for CUDA's <cuda_runtime.h> on the SIMT emulator
 * (common/simt/cuda/ is on the include path of every file tools/pwcc builds,
 * .cu, .cpp and .c alike, as nvcc's include folder is). All of what it
 * declares comes with simt.h (the runtime API, the kernel language, vector
 * types, math and integer intrinsics: simt_cuda.h); tools/pwcc includes it
 * before every .cu file, as nvcc does. It defines the include guards of
 * the headers the real one includes, which helper code tests (cuda-samples'
 * helper_cuda.h defines checkCudaErrors under __DRIVER_TYPES_H__ and
 * findCudaDevice under __CUDA_RUNTIME_H__). */
#if !defined(__CUDA_RUNTIME_H__)
#define __CUDA_RUNTIME_H__
#include "cuda_runtime_api.h"
#include "vector_functions.h"
#include "device_launch_parameters.h"
#include "simt.h"
#endif
