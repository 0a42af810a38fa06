# caption: Where a data-parallel step's time goes (modelled, from the per-sample load and compute times measured on this machine), stacked per replica count: waiting for data (orange), compute (blue), gradient all-reduce (green). Left: the node's fewest loaders, loading in the loop: the wait is the same at every replica count and more replicas shrink only the blue part. Right: the most loaders, prefetching: the wait is hidden behind the compute wherever the loaders keep up.
# data: starved_dp.csv
# source: modelled
load 'plots/common.gp'
f = csv('starved_dp.csv')
rows(v, L) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } $ix[\"variant\"] == \"%s\" && $ix[\"n\"] == %d { r = $ix[\"threads\"]; if (!(r in seen)) { seen[r] = 1; order[++k] = r } val[r, $ix[\"param\"]] = $ix[\"value\"] * 1e3 } END { print \"replicas wait compute allreduce\"; for (j = 1; j <= k; j++) { r = order[j]; print r, val[r, \"wait\"], val[r, \"compute\"], val[r, \"allreduce\"] } }' '%s'", v, L, f)
set datafile separator whitespace   # the awk pivots below print space-separated columns
stats sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } { print $ix[\"n\"], $ix[\"value\"] * 1e3 }' '%s'", f) using 1:2 nooutput
Lmin = STATS_min_x
Lmax = STATS_max_x
ymax = STATS_max_y
set style data histograms
set style histogram rowstacked
set style fill solid 0.9 noborder
set boxwidth 0.7
set yrange [0:ymax * 1.1]
set ylabel 'modelled time per step (ms)'
set xlabel 'replicas'
set key top right
if (is_dumb) { set terminal dumb size 100,30 }
set multiplot layout 1, 2
set title sprintf('%d loader, no prefetch', Lmin)
plot rows('no_prefetch', Lmin) using 2:xtic(1) lt 2 title 'wait for data', '' using 3 lt 1 title 'compute', '' using 4 lt 3 title 'all-reduce'
set title sprintf('%d loaders, prefetch', Lmax)
unset ylabel
unset key
plot rows('prefetch', Lmax) using 2:xtic(1) lt 2 notitle, '' using 3 lt 1 notitle, '' using 4 lt 3 notitle
unset multiplot
