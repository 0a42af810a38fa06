# caption: Puzzle 8.10, blocks: the access picture of the solution on the SIMT emulator (n = 9 elements in blocks of 4 threads: ceil(9 / 4) = 3 blocks, 12 threads). Row i is thread i mod 4 of block i div 4; the thread with i = blockIdx.x * blockDim.x + threadIdx.x < 9 reads a[i] and writes out[i], one diagonal across the block boundaries, and the last block's 3 spare threads (rows 9 to 11) touch nothing. The right panel is the picture the checker expects; `make ex-8.10` prints both for your answer.
# data: puzzle_blocks.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_blocks.csv'; name = '8.10 blocks'; threads = 12
ylab = 'thread blockIdx.x * 4 + threadIdx.x'
load 'plots/puzzle.gp'
