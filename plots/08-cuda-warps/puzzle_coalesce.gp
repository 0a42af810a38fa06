# caption: Puzzle 8.18, coalesce: one warp request on a 32 x 8 matrix of floats, drawn as it lies in memory (a line per row: 8 floats, one 32-byte sector), each element coloured by the lane of warp 0 that touched it in the warp's first request, grey where none did. The given kernel (thread r owns row r) puts its 32 lanes on one column: 32 rows, 32 sectors for 128 useful bytes. The solution's first load and first store (counted by the emulator) are a band of 4 rows: lane l on element l, 4 sectors, the ideal. `make ex-8.18` prints the same picture for your answer.
# data: puzzle_coalesce.csv
# source: counted
load 'plots/common.gp'
f = csv('puzzle_coalesce.csv')
stats f using 'col' nooutput
C = STATS_max + 1                         # columns of the matrix
stats f using 'row' nooutput
R = STATS_max + 1                         # rows
W = C + 3                                 # a panel and the gap after it
set title "8.18 coalesce: which lane of warp 0 touched which element in its first request\n(the matrix as it lies in memory: a line per row of 8 floats = one 32-byte sector)"
set xrange [-1:4 * W - 2]
set yrange [R + 0.5:-3]
unset xtics
set ytics 0, 4, R - 1 nomirror
set ylabel 'row of the matrix (one 32-byte sector each)'
set xlabel 'column of the matrix, per panel'
set cbrange [0:31]
set cbtics 0, 8, 31
set cblabel 'lane'
set palette defined (0 '#0072B2', 15 '#009E73', 31 '#E69F00')
set style fill solid 1.0 border lc rgb '#ffffff'
set key off
plot f using (column('row') >= 0 && column('lane') < 0 ? column('col') + column('panel') * W : 1/0):'row':(0.5):(0.5) \
       with boxxyerror fc rgb '#e6e6e6', \
     f using (column('row') >= 0 && column('lane') >= 0 ? column('col') + column('panel') * W : 1/0):'row':(0.5):(0.5):'lane' \
       with boxxyerror fc palette, \
     f using (column('row') < 0 ? column('col') + column('panel') * W : 1/0):(-1.5):'title' with labels font ',10'
