/* common/simt/cuda/cublas.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: cuBLAS (cublas.h) is not supported yet: write the kernel, or compare with a host loop"
