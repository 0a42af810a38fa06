# caption: Puzzle 8.13, dot: the access picture of the solution on the SIMT emulator (n = 8, one block of 8 threads; s is the block's shared memory). Every thread reads a[i] and b[i] and stores the product in s[i]; then the tree: threads 0-3 add s[4-7] in, threads 0-1 add s[2-3], thread 0 adds s[1], 3 steps for 8 products, and thread 0 makes the one write of out. `make ex-8.13` prints both panels for your answer.
# data: puzzle_dot.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_dot.csv'; name = '8.13 dot'
load 'plots/puzzle.gp'
