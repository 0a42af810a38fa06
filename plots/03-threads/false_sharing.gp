# caption: False sharing: T threads each increment their own counter. packed puts the counters 8 bytes apart (one 64-byte cache line holds eight), padded gives each its own line. Time per update of one thread (the run's median time divided by the updates per thread) against threads; the slowdown of packed over padded is printed at each point. At 1 thread both are alike: no other core takes the line away. A ringed point is suspect: its threads mostly took turns on one core, so no line moved between cores.
# data: false_sharing.csv
load 'plots/common.gp'
f = csv('false_sharing.csv')
V = values(f, 'variant', 'kind', 'summary')
nv = words(V)
ns(c) = column(c) / column('n') * 1e9
# the slowdown at each thread count: packed median / padded median
slow = system(sprintf("awk -F, '/^#/ || !h { h = 1; next } $3 == \"summary\" { t[$6] = 1; m[$2, $6] = $9 } END { for (k in t) if (m[\"padded\", k] > 0) printf \"%%s %%.2f \", k, m[\"packed\", k] / m[\"padded\", k] }' '%s'", f))

set title 'False sharing: own counters in one cache line (packed) or one line each (padded)'
set xlabel 'threads'
set ylabel 'ns per update, one thread (median; bars: IQR)'
set xtics 1
set yrange [0 : *]
set offsets 0, 0, graph 0.15, 0
stats f using (column('threads')) nooutput
set xrange [0.7 : STATS_max + 0.3]
set key bottom right
do for [k = 1 : words(slow) / 2] {
    set label sprintf('packed %sx', word(slow, 2 * k)) at first word(slow, 2 * k - 1) + 0, graph 0.92 center tc rgb ref_color boxed
}
# Suspect points (their threads did not run at the same time: the CSV's
# overlap column below 0.5) are ringed; the overlay is named only if any.
nsus = system(sprintf("awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } ix[\"overlap\"] && $ix[\"overlap\"] != \"\" && $ix[\"overlap\"] < 0.5 { n++ } END { print n + 0 }' '%s'", f)) + 0
sus(x) = strcol('overlap') ne '' && column('overlap') < 0.5
cmd = "plot for [i=1:nv] where(f, 'variant', word(V, i)) using 'threads':(ns('median_s')):(ns('q1_s')):(ns('q3_s')) with yerrorlines lt i title word(V, i)"
if (nsus > 0) {
    cmd = cmd . ", f using (sus(0) ? column('threads') : NaN):(ns('median_s')) with points pt 4 ps 3 lw 1.5 lc rgb '#000000' title 'suspect: its threads did not run at once'"
}
eval cmd
