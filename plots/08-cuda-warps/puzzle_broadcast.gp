# caption: Puzzle 8.9, broadcast: the access picture of the solution on the SIMT emulator (out = a column of 2 plus a row of 5, a 2 x 5 matrix; one block of 6 x 3 = 18 threads). Every thread of row r reads the same a[r] (a vertical bar per row of the block) and thread (x, y) reads b[x], so b's diagonal repeats once per row; each writes its own cell of out. 2 reads and 1 write per thread with a cell; the spare threads 5, 11 and 12 to 17 touch nothing. The right panel is the picture the checker expects; `make ex-8.9` prints both for your answer.
# data: puzzle_broadcast.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_broadcast.csv'; name = '8.9 broadcast'; threads = 18
ylab = 'thread threadIdx.x + 6 threadIdx.y (block 6 x 3)'
load 'plots/puzzle.gp'
