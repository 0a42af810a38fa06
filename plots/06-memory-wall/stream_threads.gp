# caption: STREAM's four kernels: the best of each run's trials in GB/s (STREAM's statistic, bytes counted as STREAM counts them) against the thread count, ours as lines; McCalpin's STREAM, built from its source and run in the same minutes at the same array size, as open circles where the run had it (STREAM_SRC). Where one core nearly fills the memory's bandwidth, more threads add little.
# data: stream.csv
load 'plots/common.gp'
f = csv('stream.csv')
K = values(f, 'variant', 'param', 'best_gbs')
nk = words(K)
mc = words(values(f, 'variant', 'param', 'mccalpin_best_gbs'))
array = meta(f, 'array_bytes')
# one kernel's rows of one statistic (variant and param are columns 2 and 7)
rows(k, p) = sprintf("< awk -F, '/^#/ { next } !h { h = 1; print; next } $2 == \"%s\" && $7 == \"%s\"' '%s'", k, p, f)

set title sprintf('STREAM: bandwidth against threads (arrays of %s each)', bytes_label(array + 0))
set xlabel 'threads'
set ylabel 'best GB/s'
stats f using (strcol('param') eq 'best_gbs' ? column('threads') : NaN) nooutput
set xrange [0.5 : STATS_max + 0.5]
set xtics 1
set yrange [0 : *]
set key outside right top
# (an empty `for` still draws once in gnuplot: McCalpin's points only where the run had them)
if (mc > 0) {
    plot for [i=1:nk] rows(word(K, i), 'best_gbs') using 'threads':'value' with linespoints lt i title word(K, i), \
         for [i=1:nk] rows(word(K, i), 'mccalpin_best_gbs') using 'threads':'value' with points lt i pt 6 ps 1.8 \
             title word(K, i).' (McCalpin)'
} else {
    plot for [i=1:nk] rows(word(K, i), 'best_gbs') using 'threads':'value' with linespoints lt i title word(K, i)
}
