# caption: Puzzle 8.15, prefix sum: the access picture of the solution on the SIMT emulator (n = 12, 2 blocks of 8 threads; s is each block's shared memory, two buffers of 8). Each thread reads a[i] once; then log2(8) = 3 steps, each reading one buffer (its own cell and the one 1, 2, then 4 to its left) and writing the other, so no cell is read and written in the same step. Threads 12-15 lie past n: they take part in the steps with zeros and write nothing. `make ex-8.15` prints both panels for your answer.
# data: puzzle_prefix_sum.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_prefix_sum.csv'; name = '8.15 prefix sum'
load 'plots/puzzle.gp'
