# caption: False sharing: T threads each increment their own counter. packed puts the counters 8 bytes apart (one 64-byte cache line holds eight), padded gives each its own line. Time per update of one thread (the run's median time divided by the updates per thread) against threads; the slowdown of packed over padded is printed at each point. At 1 thread both are alike: no other core takes the line away.
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
plot for [i=1:nv] where(f, 'variant', word(V, i)) \
        using 'threads':(ns('median_s')):(ns('q1_s')):(ns('q3_s')) \
        with yerrorlines lt i title word(V, i)
