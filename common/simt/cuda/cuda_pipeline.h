/* common/simt/cuda/cuda_pipeline.h: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: cuda_pipeline.h (__pipeline_memcpy_async, asynchronous copies) is not supported yet"
