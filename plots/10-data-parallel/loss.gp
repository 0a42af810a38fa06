# caption: Training loss of the 16-64-4 MLP, step by step, on one device (line) and data-parallel on the most replicas of the run with a ring all-reduce, a tree all-reduce, and a ring with gradient accumulation (points). The curves coincide: the replicas add the same gradients in a different order, which moves the weights by about 1e-8 (see the max_weight_diff rows), far below what the plot can show.
# data: dataparallel.csv
# source: computed
load 'plots/common.gp'
f = csv('dataparallel.csv')
sel(v, par, t) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\" && (\"%s\" == \"\" || $ix[\"threads\"] == \"%s\")' '%s'", v, par, t, t, f)
stats sel('ring', 'loss', '') using 'threads' nooutput
R = sprintf('%d', STATS_max)
set title sprintf('Loss curves: one device against %s data-parallel replicas', R)
set xlabel 'SGD step'
set ylabel 'mean squared-error loss over the batch'
set key inside right top
plot sel('one_device', 'loss', '') using 'n':'value' with lines lt 7 lw 2 title 'one device', \
     sel('ring', 'loss', R) using 'n':'value' with points lt 1 pt 6 ps 1.4 title R.' replicas, ring', \
     sel('tree', 'loss', R) using 'n':'value' with points lt 2 pt 2 title R.' replicas, tree', \
     sel('ring_accumulate', 'loss', R) using 'n':'value' with points lt 3 pt 8 title R.' replicas, ring + accumulation'
