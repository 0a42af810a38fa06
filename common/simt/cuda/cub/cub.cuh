/* common/simt/cuda/cub/cub.cuh: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: CUB (cub/cub.cuh) is not supported yet: write the block or warp reduction/scan yourself (the chapter's point)"
