/* common/simt/cuda/thrust/copy.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/copy.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
