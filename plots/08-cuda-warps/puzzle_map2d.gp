# caption: Puzzle 8.8, map2d: the access picture of the solution on the SIMT emulator (a 2 x 5 matrix stored row by row, one block of 6 x 3 = 18 threads). Row t of the picture is thread (x, y) = (t mod 6, t div 6); thread (x, y) with x < 5 and y < 2 reads a(y, x) = a[5 y + x] and writes out(y, x), so the diagonal breaks where the block's row is wider than the matrix's: threads 5, 11 and the whole third row of the block (12 to 17) have no cell and touch nothing. The right panel is the picture the checker expects; `make ex-8.8` prints both for your answer.
# data: puzzle_map2d.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_map2d.csv'; name = '8.8 map2d'; threads = 18
ylab = 'thread threadIdx.x + 6 threadIdx.y (block 6 x 3)'
load 'plots/puzzle.gp'
