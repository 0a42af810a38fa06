/* common/simt/cuda/cub/block/block_scan.cuh: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: CUB (cub::BlockScan) is not supported yet: write the block scan yourself"
