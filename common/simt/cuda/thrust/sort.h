/* common/simt/cuda/thrust/sort.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/sort.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
