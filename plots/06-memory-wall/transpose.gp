# caption: Transpose of a matrix larger than the caches: GB/s (8 bytes counted per element: read once, written once) against the block size of the cache-blocked version, with the naive loop as a flat line. Blocks narrower than a cache line (16 floats) waste most of each line they write; tiles whose lines fit in L1 (the probe's size, marked) are the best case; past it, rates fall or level off.
# data: transpose.csv
# terminal: yes
load 'plots/common.gp'
f = csv('transpose.csv')
rows = meta(f, 'rows'); cols = meta(f, 'cols'); l1 = meta(f, 'l1d_bytes') + 0
set title sprintf('Transpose %s x %s: blocked against naive (one core)', rows, cols)
set xlabel 'block size (floats per tile edge, log scale)'
set ylabel 'GB/s (8 bytes per element)'
set yrange [0 : *]
set logscale x 2
set format x '%g'
set key outside right top
stats where(f, 'variant', 'naive') using 'gbs' nooutput
naive = STATS_max
stats where(f, 'variant', 'blocked') using (column('param')) nooutput
set xrange [STATS_min / 1.5 : STATS_max * 1.5]
# the largest block whose tile (2 x B x B floats, whole lines) fits in L1: 2 B^2 4 <= L1 for B >= 16
bl1 = l1 > 0 ? sqrt(l1 / 8.0) : NaN
if (l1 > 0) { set arrow from bl1, graph 0 to bl1, graph 1 nohead dt 2 lc rgb ref_color lw 1.5
              set label sprintf('tile fills L1 (%s)', bytes_label(l1)) at bl1, graph 0.95 left offset 0.5, 0 tc rgb ref_color font ',10' }
set arrow from 16, graph 0 to 16, graph 1 nohead dt 3 lc rgb ref_color lw 1
set label '16 floats = one line' at 16, graph 0.05 right offset -0.5, 0 tc rgb ref_color font ',10'
plot where(f, 'variant', 'blocked') using (column('param')):'gbs' with linespoints lt 1 title 'blocked', \
     naive with lines lt 2 dt 2 title sprintf('naive: %.1f GB/s', naive)
