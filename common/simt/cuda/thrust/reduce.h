/* common/simt/cuda/thrust/reduce.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/reduce.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
