# caption: Puzzle 8.12, pool: the access picture of the solution on the SIMT emulator (n = 8, one block of 8 threads; s is the block's shared memory). Thread i reads a[i] once and stores it in s[i] (purple: written, then read); after the barrier it reads s[i-2] and s[i-1] from shared memory, so a has one read per thread, the puzzle's budget, where reading the window from global memory would take 3. `make ex-8.12` prints both panels for your answer.
# data: puzzle_pool.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_pool.csv'; name = '8.12 pool'
load 'plots/puzzle.gp'
