/* common/simt/cuda/cuda_bf16.hpp: see cuda_bf16.h. */
#include "cuda_bf16.h"
