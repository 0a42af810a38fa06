# caption: Puzzle 8.6, zip: the access picture of the solution on the SIMT emulator (n = 8, one block of 8 threads). Thread i reads a[i] and b[i] and writes out[i]: the same diagonal in all three arrays, 2 reads and 1 write per thread, the puzzle's budget. The right panel is the picture the checker expects; `make ex-8.6` prints both for your answer.
# data: puzzle_zip.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_zip.csv'; name = '8.6 zip'
load 'plots/puzzle.gp'
