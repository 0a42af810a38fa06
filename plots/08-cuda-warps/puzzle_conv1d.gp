# caption: Puzzle 8.14, conv1d: the access picture of the solution on the SIMT emulator (n = 12, k = 3, 2 blocks of 8 threads; s is each block's shared memory: the tile of 8, the halo of k - 1 = 2, the 3 weights). Threads 0 and 1 also load the halo (a[8] and a[9] for block 0; block 1's lies past n, so they store zeros) and threads 0-2 the weights: at most 3 global reads per thread; every sum reads its 3 elements and 3 weights from s. Threads 12-15 lie past n: they store zeros in s and write no output. `make ex-8.14` prints both panels for your answer.
# data: puzzle_conv1d.csv
# source: counted
load 'plots/common.gp'
data = 'puzzle_conv1d.csv'; name = '8.14 conv1d'
load 'plots/puzzle.gp'
