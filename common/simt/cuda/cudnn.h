/* common/simt/cuda/cudnn.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: cuDNN (cudnn.h) is not supported yet"
