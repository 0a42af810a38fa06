# caption: Coalescing: 32-byte sectors one warp's load touches, by access pattern, counted by the SIMT emulator. 32 consecutive floats are 128 bytes, 4 sectors (the dashed line); stride 2 doubles that, stride 8 and beyond gives every lane its own sector (32); one field of a 12-byte struct (AoS) drags 12 sectors where the same field as its own array (SoA) needs 4. Stores of the naive transpose go down columns: 32 sectors.
# data: memory.csv
# source: counted
# terminal: yes
load 'plots/common.gp'
f = csv('memory.csv')
ld = where(f, 'param', 'load_sectors_per_request')
st = where(f, 'param', 'store_sectors_per_request')

set title 'Sectors per warp access (4 = perfectly coalesced, 32 = one sector per lane)'
set ylabel '32-byte sectors per warp request'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:36]
set ytics (0, 4, 8, 12, 16, 20, 24, 28, 32)
set xtics rotate by 30 right scale 0 font ',10'
set bmargin 6
set grid noxtics
set key top left
set arrow from graph 0, first 4 to graph 1, first 4 nohead lc rgb ref_color dt 2 lw 1.5 back
plot ld using 'value':xtic(strcol('variant')) title 'load' lt 1, \
     st using 'value' title 'store' lt 2
