/* common/simt/cuda/thrust/iterator/counting_iterator.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/iterator/counting_iterator.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
