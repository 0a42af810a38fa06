# caption: The reduction ladder on the emulator, per rung: barriers passed (summed over blocks), shared-memory loads and stores, and warp instructions seen, for the same n (log scale), with the average bank-conflict ways above each rung. Each rung removes work the one before did: the strided index trades divergence for bank conflicts, sequential addressing removes those, the first add halves the blocks, shuffles replace the last barriers and shared accesses, and many elements per thread leaves almost only the loads.
# data: reduce.csv
# source: counted
# terminal: yes
load 'plots/common.gp'
f = csv('reduce.csv')
b = where(f, 'param', 'barriers')
s = where(f, 'param', 'shared_accesses')
k = where(f, 'param', 'warp_steps')
c = where(f, 'param', 'conflict_ways')
n = meta(f, 'block')

set title sprintf('The reduction ladder, counted (blocks of %s threads)', n)
set ylabel 'count (log scale)'
set logscale y
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
stats s using 'value' nooutput
top = STATS_max
set yrange [1:top * 30]
set xtics scale 0 font ',10'
set grid noxtics
set key top right
plot b using 'value':xtic(strcol('variant')) title 'barriers' lt 1, \
     s using 'value' title 'shared loads+stores' lt 2, \
     k using 'value' title 'warp instructions' lt 3, \
     c using 0:(top * 4):(column('value') > 1.005 ? sprintf('%.1f-way conflicts', column('value')) : '') \
       with labels tc rgb ref_color notitle
