/* common/simt/cuda/cufft.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: cuFFT (cufft.h) is not supported yet"
