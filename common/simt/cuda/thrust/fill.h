/* common/simt/cuda/thrust/fill.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/fill.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
