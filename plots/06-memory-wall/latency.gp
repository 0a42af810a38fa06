# caption: Latency of one load (pointer chasing over a random cycle of the working set's cache lines, so the prefetcher cannot help) against the working-set size, log-log; the right axis in cycles of the clock measured in the same run. The dashed lines are the cache sizes the system reports. Each level is a plateau; past the last cache every load waits for DRAM, and past the TLB's reach for a page walk as well.
# data: staircase.csv
load 'plots/common.gp'
f = csv('staircase.csv')
l1 = meta(f, 'l1d_bytes') + 0
l2 = meta(f, 'l2_bytes') + 0
l3 = meta(f, 'l3_bytes') + 0
ghz = meta(f, 'clock_ghz') + 0

set title sprintf('Latency by pointer chasing (clock measured: %.2f GHz)', ghz)
set xlabel 'working set'
set ylabel 'ns per load (log scale)'
set logscale x 2
set logscale y 10
set format y '%g'
stats where(f, 'variant', 'latency_ns') using 'n':'value' nooutput
xmin = STATS_min_x; xmax = STATS_max_x
set xrange [xmin / 1.5 : xmax * 1.5]
set yrange [STATS_min_y / 1.5 : STATS_max_y * 1.5]
set xtics ()
do for [e = 12 : 40 : 2] { if (2.0**e >= xmin / 1.5 && 2.0**e <= xmax * 1.5) { set xtics add (bytes_label(2.0**e) 2.0**e) } }
if (ghz > 0) {
    set y2label 'cycles'
    set logscale y2 10
    set y2range [STATS_min_y / 1.5 * ghz : STATS_max_y * 1.5 * ghz]
    set y2tics
    set format y2 '%g'
}
set key top left
do for [c in 'l1 l2 l3'] {
    v = value(c)
    if (v > 0 && v >= xmin / 1.5 && v <= xmax * 1.5) {
        set arrow from v, graph 0 to v, graph 1 nohead dt 2 lc rgb ref_color lw 1 back
        set label sprintf('%s %s', c eq 'l1' ? 'L1d' : (c eq 'l2' ? 'L2' : 'L3'), bytes_label(v)) at v, graph 0.05 \
            left offset 0.5, 0 tc rgb ref_color font ',9' front
    }
    if (v > xmax * 1.5) {   # reported, but past the sweep (a VM's L3 may be)
        set label sprintf('%s %s: past the sweep', c eq 'l1' ? 'L1d' : (c eq 'l2' ? 'L2' : 'L3'), bytes_label(v)) \
            at graph 0.98, graph 0.12 right tc rgb ref_color font ',9' front
    }
}
plot where(f, 'variant', 'latency_ns') using 'n':'value' with linespoints lt 2 title 'latency (median)'
