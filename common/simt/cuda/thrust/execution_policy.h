/* common/simt/cuda/thrust/execution_policy.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: Thrust (thrust/execution_policy.h) is not supported yet: use cudaMalloc/cudaMemcpy and your own kernels"
