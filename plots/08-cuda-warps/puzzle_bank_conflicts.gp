# caption: Puzzle 8.19, bank conflicts: one warp's first load from the 32 x 32 shared tile of a transpose, a row per lane and a column per bank (word w is in bank w % 32), coloured by the word's row in its bank (w / 32). Left, the given tile[32][32] (built from its addresses): lane l reads tile[l][0], word 32 l, so every lane is in bank 0, 32 different words: a 32-way conflict, 32 wavefronts. Right, the solution's tile[32][33], counted by the emulator: word 33 l is in bank l, a diagonal, 1 wavefront. `make ex-8.19` prints the same picture for your answer.
# data: puzzle_bank_conflicts.csv
# source: counted
load 'plots/common.gp'
f = csv('puzzle_bank_conflicts.csv')
W = 36                                    # a panel (32 banks) and the gap after it
set title "8.19 bank conflicts: the banks one warp's column read of the tile touches\n(a row per lane; cells stacked in one column: one bank serving that many words in turn)"
set xrange [-1:2 * W - 4]
set yrange [32:-3]
set xtics ('0' 0, '8' 8, '16' 16, '24' 24, '31' 31, '0' W, '8' W + 8, '16' W + 16, '24' W + 24, '31' W + 31) nomirror
set ytics 0, 4, 31 nomirror
set xlabel 'bank'
set ylabel 'lane of warp 0'
set cbrange [0:32]
set cbtics 0, 8, 32
set cblabel "word's row in its bank (w / 32)"
set palette defined (0 '#0072B2', 16 '#009E73', 32 '#E69F00')
set style fill solid 1.0 border lc rgb '#ffffff'
set key off
# the 32 x 32 grid of every panel, light grey, then the lanes' words
set object 1 rect from -0.5, -0.5 to 31.5, 31.5 fc rgb '#f0f0f0' fs solid 1.0 noborder back
set object 2 rect from W - 0.5, -0.5 to W + 31.5, 31.5 fc rgb '#f0f0f0' fs solid 1.0 noborder back
plot f using (column('lane') >= 0 ? column('bank') + column('panel') * W : 1/0):'lane':(0.5):(0.5):'row' \
       with boxxyerror fc palette, \
     f using (column('lane') < 0 ? column('bank') + column('panel') * W : 1/0):(-1.5):'title' with labels font ',10'
