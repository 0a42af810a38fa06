# caption: Divergence: SIMT efficiency (active lanes / 32 over every warp instruction the emulator saw) by kernel. A branch on lane parity runs both sides with half the lanes idle (0.5); the same branch on the warp index costs nothing (1.0). In the reduction ladder, interleaved addressing leaves most lanes idle; sequential addressing and shuffles bring the efficiency back.
# data: warps.csv,reduce.csv
# source: counted
load 'plots/common.gp'
w = where(csv('warps.csv'), 'param', 'simt_efficiency')
r = where(csv('reduce.csv'), 'param', 'simt_efficiency')
stats w using 'value' nooutput
nw = STATS_records
stats r using 'value' nooutput
nr = STATS_records

set title 'SIMT efficiency by kernel (1 = all 32 lanes busy in every warp step)'
set ylabel 'active lanes / 32'
set style fill solid 0.85 border -1
set boxwidth 0.7
set yrange [0:1.15]
set xrange [-0.7 : nw + nr - 0.3]
set xtics rotate by 30 right scale 0 font ',10'
set grid noxtics
set key top right
plot w using 0:'value':xtic(strcol('variant')) with boxes lt 1 title 'warps.cu', \
     w using 0:'value':(sprintf('%.2f', column('value'))) with labels offset 0, 0.7 notitle, \
     r using ($0 + nw):'value':xtic(strcol('variant')) with boxes lt 2 title 'reduction ladder', \
     r using ($0 + nw):'value':(sprintf('%.2f', column('value'))) with labels offset 0, 0.7 notitle
