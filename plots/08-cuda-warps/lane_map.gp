# caption: The lane map (./build/ch08/memory on the emulator): warp 0's first access in each kernel, one square per lane, lanes 0 to 31 left to right. For device memory the digit is the 32-byte sector the lane touched (numbered in address order), so a row of 8 zeros, 8 ones... is 4 sectors, one per 8 lanes: coalesced; a row 0, 1, 2... V is one sector per lane, 8 times the traffic. For the shared-memory tile the digit is the bank: reading the 32x32 tile by column puts every lane on bank 0 (32 passes); the padded 32x33 tile moves each row one bank on (1 pass).
# data: memory_lanes.csv
# source: counted
load 'plots/common.gp'
f = csv('memory_lanes.csv')
set title 'Which lane touched what: sector (device memory) or bank (shared memory)'
set xlabel 'lane of warp 0   (in each square: its sector or bank number, 0-9, then A = 10 ... V = 31)'
set xrange [-0.5:31.5]
set yrange [7.5:-0.5]
set xtics 0, 4, 31
set ytics ('stride 1 load' 0, 'stride 2 load' 1, 'stride 8 load' 2, 'stride 32 load' 3, 'AoS x load' 4, \
           'naive transpose store' 5, 'shared tile by column' 6, 'padded tile by column' 7)
set lmargin 22
set cblabel 'sector (0-31) or bank (0-31)'
set cbrange [0:31]
set palette defined (0 '#f7fbff', 8 '#c6dbef', 16 '#6baed6', 31 '#3182bd')
unset key
digit(v) = v < 10 ? sprintf('%d', v) : sprintf('%c', 55 + v)
set style fill solid 1.0 border lc rgb '#808080'
plot f using 'lane':'row':(0.5):(0.5):'value' with boxxyerror fc palette notitle, \
     f using 'lane':'row':(digit(column('value'))) with labels font ',8' notitle
