# caption: What a correct shared counter costs: nanoseconds per update (the median time of all updates, divided by their number) against threads, for the mutex, the atomic fetch-and-add and the per-thread partial counts combined once. The racy counter (dashed) is shown for its speed only: it loses updates whenever its threads run at once (the share lost in this run is in the key). Ringed points are suspect: their threads mostly took turns on one core. Log scale.
# data: race.csv
load 'plots/common.gp'
f = csv('race.csv')
V = values(f, 'variant', 'kind', 'summary')
nv = words(V)
ns(c) = column(c) / column('n') * 1e9
# the racy rows' param is the share of updates lost: put the largest in the key
lost = system(sprintf("awk -F, '/^#/ || !h { h = 1; next } $2 == \"racy\" { sub(/lost /, \"\", $7); v = $7 + 0; if (v > m) m = v } END { printf \"%%.1f\", m }' '%s'", f))
is_racy(i) = word(V, i) eq 'racy'
title_of(i) = is_racy(i) ? sprintf('racy (WRONG: lost up to %s%% of the updates in this run)', lost) : word(V, i)

set title 'Cost per update of a shared counter, by fix, against threads'
set xlabel 'threads'
set ylabel 'ns per update (median; bars: IQR; log scale)'
set logscale y
set format y '%g'
set xtics 1
stats f using (column('threads')) nooutput
set xrange [0.7 : STATS_max + 0.3]
# The key sits top left, in headroom made for it: 40x above the slowest
# point on the log axis (over the data it hid the mutex line).
stats where(f, 'kind', 'summary') using (ns('median_s')) nooutput
set yrange [STATS_min / 2 : STATS_max * 40]
set key top left
# Suspect points (the CSV's overlap column below 0.5: the threads mostly
# took turns on one core) are ringed; the overlay is named only if any.
nsus = system(sprintf("awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } ix[\"overlap\"] && $ix[\"overlap\"] != \"\" && $ix[\"overlap\"] < 0.5 { n++ } END { print n + 0 }' '%s'", f)) + 0
sus(x) = strcol('overlap') ne '' && column('overlap') < 0.5
cmd = "plot for [i=1:nv] where(f, 'variant', word(V, i)) using 'threads':(ns('median_s')):(ns('q1_s')):(ns('q3_s')) with yerrorlines lt i dashtype 1+is_racy(i) title title_of(i)"
if (nsus > 0) {
    cmd = cmd . ", f using (sus(0) ? column('threads') : NaN):(ns('median_s')) with points pt 4 ps 3 lw 1.5 lc rgb '#000000' title 'suspect: its threads did not run at once'"
}
eval cmd
