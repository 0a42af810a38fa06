# caption: Puzzle 8.7, guards: the access picture of the solution on the SIMT emulator (n = 5 elements, one block of 32 threads: n rounded up to a whole warp). Threads 0 to 4 read a[i] and write out[i]; threads 5 to 31 have no element and touch nothing, the guard i < n. Without the guard they would run off the end of both arrays (the emulator stops that kernel). The right panel is the picture the checker expects; `make ex-8.7` prints both for your answer.
# data: puzzle_guards.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_guards.csv'; name = '8.7 guards'; threads = 32
load 'plots/puzzle.gp'
