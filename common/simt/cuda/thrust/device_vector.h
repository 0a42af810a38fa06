/* common/simt/cuda/thrust/device_vector.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/device_vector.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
