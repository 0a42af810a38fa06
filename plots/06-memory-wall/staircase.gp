# caption: Read bandwidth of one core (a 32-way sum, median of the samples) against the working-set size, from 4 KiB up. The dashed lines are the cache sizes the system reports (L1d, L2, L3, from the CSV); each time the working set outgrows one, the rate steps down. A virtual machine may report an L3 larger than the cache it has: then the last step comes before the last line.
# data: staircase.csv
# terminal: yes
load 'plots/common.gp'
f = csv('staircase.csv')
l1 = meta(f, 'l1d_bytes') + 0
l2 = meta(f, 'l2_bytes') + 0
l3 = meta(f, 'l3_bytes') + 0

set title 'The cache staircase: read bandwidth against working set (one core)'
set xlabel 'working set'
set ylabel 'read GB/s (log scale)'
set logscale x 2
stats where(f, 'variant', 'read_bw') using 'n' nooutput
xmin = STATS_min; xmax = STATS_max
set xrange [xmin / 1.5 : xmax * 1.5]
set xtics () 
do for [e = 12 : 40 : 2] { if (2.0**e >= xmin / 1.5 && 2.0**e <= xmax * 1.5) { set xtics add (bytes_label(2.0**e) 2.0**e) } }
# Log y: the levels span a decade or more (DRAM 30-40 GB/s, L1 300-400 here),
# and a step down is a ratio. The key bottom left, under the first points
# (top right it covered the L3 line's label).
set logscale y 10
set format y '%g'
set yrange [* : *]
set key bottom left
do for [c in 'l1 l2 l3'] {
    v = value(c)
    if (v > 0 && v >= xmin / 1.5 && v <= xmax * 1.5) {
        set arrow from v, graph 0 to v, graph 1 nohead dt 2 lc rgb ref_color lw 1 back
        set label sprintf('%s %s', c eq 'l1' ? 'L1d' : (c eq 'l2' ? 'L2' : 'L3'), bytes_label(v)) at v, graph 0.95 \
            left offset 0.5, 0 tc rgb ref_color font ',9' front
    }
    if (v > xmax * 1.5) {   # reported, but past the sweep (a VM's L3 may be)
        set label sprintf('%s %s: past the sweep', c eq 'l1' ? 'L1d' : (c eq 'l2' ? 'L2' : 'L3'), bytes_label(v)) \
            at graph 0.98, graph 0.88 right tc rgb ref_color font ',9' front
    }
}
plot where(f, 'variant', 'read_bw') using 'n':'gbs' with linespoints lt 1 title 'read bandwidth (median)'
