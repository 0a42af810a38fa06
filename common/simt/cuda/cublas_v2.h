/* common/simt/cuda/cublas_v2.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: cuBLAS (cublas_v2.h) is not supported yet: write the kernel (the chapter's point), or compare with a host loop"
