/* common/simt/cuda/thrust/transform.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/transform.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
