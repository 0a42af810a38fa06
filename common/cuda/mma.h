/* common/cuda/mma.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: tensor cores (mma.h, nvcuda::wmma) are not supported yet: nvcuda::wmma comes with chapter 09"
