/* common/simt/cuda/cuda_awbarrier.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: cuda_awbarrier.h (arrive/wait barriers) is not supported yet: use __syncthreads() or cooperative_groups"
