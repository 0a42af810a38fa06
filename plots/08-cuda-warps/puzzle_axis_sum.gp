# caption: Puzzle 8.16, axis sum: the access picture of the solution on the SIMT emulator (a 3 x 5 matrix, one block of 8 threads per row; s is each block's shared memory). Block r's threads 0-4 read row r (a[5r .. 5r+4]) and threads 5-7 store zeros; the tree halves 8 -> 4 -> 2 -> 1 in shared memory and thread 0 of each block writes out[r]: 1 global read per thread, 3 writes in all. `make ex-8.16` prints both panels for your answer.
# data: puzzle_axis_sum.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_axis_sum.csv'; name = '8.16 axis sum'
load 'plots/puzzle.gp'
