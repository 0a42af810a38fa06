/* common/simt/cuda/device_launch_parameters.h: the stand-in for CUDA's
 * <device_launch_parameters.h> on the SIMT emulator: threadIdx, blockIdx,
 * blockDim, gridDim, warpSize (simt_device.h), from simt.h. Defines the real
 * header's include guard, __DEVICE_LAUNCH_PARAMETERS_H__, which helper code
 * may test. */
#if !defined(__DEVICE_LAUNCH_PARAMETERS_H__)
#define __DEVICE_LAUNCH_PARAMETERS_H__
#include "simt.h"
#endif
