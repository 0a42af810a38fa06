/* common/simt/cuda/thrust/scan.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/scan.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
