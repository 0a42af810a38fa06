# caption: Puzzle 8.17, matmul: the access picture of the solution on the SIMT emulator (n = 3 in 2 x 2 tiles: 4 blocks of 4 threads; s is each block's shared memory, A's tile then B's). At each of the ceil(3 / 2) = 2 steps along k every thread loads one element of A and one of B (none past the edge): 4 global reads per thread, where the naive kernel reads a row and a column, 6. Threads past the edge (5, 7, 10, 11, 13-15) load zeros into s and write no C. `make ex-8.17` prints both panels for your answer.
# data: puzzle_matmul.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_matmul.csv'; name = '8.17 matmul'
load 'plots/puzzle.gp'
