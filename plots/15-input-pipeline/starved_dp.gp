# caption: Modelled step time of data parallelism on one node (virtual cluster), the per-sample load and compute times measured on this machine. With the node's loaders making the whole global batch each step, more replicas shrink only the compute: with 1 loader (the top two lines) 8 replicas give far less than 8x, because every replica waits for its share of the same loader; with prefetch the line is flat at the loader's pace, the compute hidden under it. With 8 loaders (the bottom two) the replicas pay off, until the loading is the larger part again.
# data: starved_dp.csv
# source: modelled
load 'plots/common.gp'
f = csv('starved_dp.csv')
sel(v, L) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"n\"] == %d && $ix[\"param\"] == \"step\"' '%s'", v, L, f)
stats sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } { print }' '%s'", f) using 'n' nooutput
Lmin = STATS_min
Lmax = STATS_max
set logscale x 2
set xlabel 'replicas on one node'
set ylabel 'modelled step time (ms)'
set yrange [0:*]
set key top right
set title 'More devices do not feed a starved loader'
plot sel('no_prefetch', Lmin) using 'threads':(column('value') * 1e3) with linespoints lt 2 title sprintf('%d loader, no prefetch', Lmin), \
     sel('prefetch', Lmin) using 'threads':(column('value') * 1e3) with linespoints lt 4 title sprintf('%d loader, prefetch', Lmin), \
     sel('no_prefetch', Lmax) using 'threads':(column('value') * 1e3) with linespoints lt 1 title sprintf('%d loaders, no prefetch', Lmax), \
     sel('prefetch', Lmax) using 'threads':(column('value') * 1e3) with linespoints lt 3 title sprintf('%d loaders, prefetch', Lmax)
