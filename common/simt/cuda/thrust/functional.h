/* common/simt/cuda/thrust/functional.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/functional.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
