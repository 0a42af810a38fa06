/* common/simt/cuda/cub/block/block_reduce.cuh: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: CUB (cub::BlockReduce) is not supported yet: write the block reduction yourself"
