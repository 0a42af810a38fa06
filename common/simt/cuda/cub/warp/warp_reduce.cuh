/* common/simt/cuda/cub/warp/warp_reduce.cuh: not on the SIMT emulator (one clear error, below). */
#error "SIMT emulator: CUB (cub::WarpReduce) is not supported yet: use __shfl_down_sync or cg::reduce"
