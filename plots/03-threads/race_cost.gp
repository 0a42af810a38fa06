# caption: What a correct shared counter costs: nanoseconds per update (the median time of all updates, divided by their number) against threads, for the mutex, the atomic fetch-and-add and the per-thread partial counts combined once. The racy counter (dashed) is shown for its speed only: it loses updates (the share lost is in the key). Log scale.
# data: race.csv
load 'plots/common.gp'
f = csv('race.csv')
V = values(f, 'variant', 'kind', 'summary')
nv = words(V)
ns(c) = column(c) / column('n') * 1e9
# the racy rows' param is the share of updates lost: put the largest in the key
lost = system(sprintf("awk -F, '/^#/ || !h { h = 1; next } $2 == \"racy\" { sub(/lost /, \"\", $7); v = $7 + 0; if (v > m) m = v } END { printf \"%%.1f\", m }' '%s'", f))
is_racy(i) = word(V, i) eq 'racy'
title_of(i) = is_racy(i) ? sprintf('racy (WRONG: loses up to %s%% of the updates)', lost) : word(V, i)

set title 'Cost per update of a shared counter, by fix, against threads'
set xlabel 'threads'
set ylabel 'ns per update (median; bars: IQR; log scale)'
set logscale y
set format y '%g'
set xtics 1
stats f using (column('threads')) nooutput
set xrange [0.7 : STATS_max + 0.3]
set key top left
plot for [i=1:nv] where(f, 'variant', word(V, i)) \
        using 'threads':(ns('median_s')):(ns('q1_s')):(ns('q3_s')) \
        with yerrorlines lt i dashtype 1+is_racy(i) title title_of(i)
