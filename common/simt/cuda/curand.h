/* common/simt/cuda/curand.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: cuRAND (curand.h, the host API) is not supported yet: generate random numbers on the host"
