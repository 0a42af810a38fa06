/* common/simt/cuda/curand_kernel.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: cuRAND (curand_kernel.h: curand_init, curand_uniform...) is not supported yet: generate random numbers on the host, or a small hash of the thread index"
