# caption: Puzzle 8.5, map: the access picture of the solution on the SIMT emulator (n = 8, one block of 8 threads). Thread i reads a[i] and writes out[i]: one diagonal per array, each thread 1 read and 1 write, which is the puzzle's budget. The right panel is the picture the checker expects; `make ex-8.5` prints both for your answer.
# data: puzzle_map.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_map.csv'; name = '8.5 map'
load 'plots/puzzle.gp'
