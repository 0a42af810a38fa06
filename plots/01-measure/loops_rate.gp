# caption: Where the data leaves the caches: the rate of four loops against the bytes each call moves, with the L1d, L2 and L3 sizes (dotted) and one core's DRAM triad bandwidth (dashed). square and saxpy fall from cache speed to DRAM speed as their traffic outgrows L2 and L3; sum and running_sum are flat at every size, held back by their one dependency chain, not by memory.
# data: loops.csv
load 'plots/common.gp'
f = csv('loops.csv')
V = values(f, 'variant', 'kind', 'summary')
nv = words(V)

# The machine, from the CSV's metadata (empty where the probe did not say).
l1 = meta(f, 'l1d_bytes')
l2 = meta(f, 'l2_bytes')
l3 = meta(f, 'l3_bytes')
bw = meta(f, 'bw_gbs_1core')

row(i) = strcol('kind') eq 'summary' && strcol('variant') eq word(V, i)
gbs(t) = column('bytes') / column(t) / 1e9

set title 'Where the data leaves the caches: four loops from L1 to DRAM (one core)'
set xlabel 'traffic per call (bytes read + written)'
set ylabel 'GB/s (log scale; bars: interquartile range)'
set logscale xy 2
set logscale y 10
set format y '%g'
set offsets 0, 0, 0, 0
set key inside left bottom maxrows 2 width 2
# x: the sizes measured and the caches (a cache line outside the range would
# be drawn outside the plot); tics every 4x, labelled in KiB/MiB/GiB
stats f using (column('bytes')) nooutput
xmin = STATS_min; xmax = STATS_max
do for [c in 'l1 l2 l3'] {
    eval sprintf("v = %s", c)
    if (strlen(v) > 0) { xmin = (v + 0 < xmin ? v + 0 : xmin); xmax = (v + 0 > xmax ? v + 0 : xmax) }
}
set xrange [xmin / 1.3 : xmax * 1.3]
set xtics ()
do for [e = floor(log(xmin) / log(4)) : ceil(log(xmax) / log(4))] {
    b = 4.0**e
    set xtics add (bytes_label(b) b)
}
set mxtics 2
# y: room below the slowest loop for the key; tics at 1, 2, 5 of each decade
stats f using (strcol('kind') eq 'summary' ? gbs('median_s') : NaN) nooutput
set yrange [STATS_min / 6 : STATS_max * 2.5]
set ytics ()
do for [e = floor(log10(STATS_min / 6)) : ceil(log10(STATS_max * 2.5))] {
    do for [m in '1 2 5'] { set ytics add ((m + 0) * 10.0**e) }
}
set mytics 1

# vertical lines at each cache size, labelled at the top
do for [c in 'l1 l2 l3'] {
    eval sprintf("v = %s", c)
    if (strlen(v) > 0) {
        name = c eq 'l1' ? 'L1d' : (c eq 'l2' ? 'L2' : 'L3')
        set arrow from first v+0, graph 0 to first v+0, graph 1 nohead lc rgb ref_color lw 1.5 dt 3 back
        set label name.' '.bytes_label(v+0) at first v+0, graph 0.97 right offset -0.5, 0 \
            tc rgb ref_color font ',10'
    }
}
# the DRAM line is labelled where it is drawn, which keeps the key to the loops
if (strlen(bw) > 0) {
    set label sprintf('DRAM triad, 1 core: %.1f GB/s', bw + 0) at graph 0.01, first bw + 0 \
        left offset 0, 0.7 tc rgb ref_color font ',10' boxed front
}
bw_line(x) = strlen(bw) > 0 ? bw + 0 : NaN

# error bars: the rate at the quartiles of the time (q3_s is the slow end)
plot for [i=1:nv] f using (row(i) ? column('bytes') : NaN):(gbs('median_s')):(gbs('q3_s')):(gbs('q1_s')) \
        with yerrorlines lt i title word(V, i), \
     bw_line(x) with lines lc rgb ref_color lw 1.5 dt 2 notitle
