/* common/simt/cuda/thrust/host_vector.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/host_vector.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
