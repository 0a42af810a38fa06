/* common/simt/cuda/cuda_fp16.hpp: see cuda_fp16.h. */
#include "cuda_fp16.h"
