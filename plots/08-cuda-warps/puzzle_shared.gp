# caption: Puzzle 8.11, shared: the access picture of the solution on the SIMT emulator (n = 11, 2 blocks of 8 threads), with the block's __shared__ array s as its own 8 columns (each block has its own s; row r is thread r mod 8 of block r div 8). Thread i reads a[i] once from global memory and writes it into s[t]; after __syncthreads() it reads its partner's slot s[t xor 1] and writes out[i], so s shows pairs of crossed cells. The last block's 5 spare threads store 0 into their slots (thread 11's is element 10's missing partner) and touch nothing else. The right panel is the picture the checker expects; `make ex-8.11` prints both for your answer.
# data: puzzle_shared.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_shared.csv'; name = '8.11 shared'; threads = 16
ylab = 'thread blockIdx.x * 8 + threadIdx.x'
load 'plots/puzzle.gp'
