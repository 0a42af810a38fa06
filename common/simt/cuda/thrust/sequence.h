/* common/simt/cuda/thrust/sequence.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/sequence.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
