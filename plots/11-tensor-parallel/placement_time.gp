# caption: One transformer layer's training step on 64 modelled devices (8 nodes of 8; inside a node 450 GB/s and 1 us, between nodes 50 GB/s and 5 us), t-way tensor parallelism times 64/t-way data parallelism, the global batch fixed. Solid: the tensor groups inside a node (their 4 all-reduces per block on the fast link, the data-parallel ring across nodes); dashed: the tensor groups across nodes (the other way round). Compute per device is the same for every t; the step's difference is all communication. Times are modelled, from placement.csv.
# data: placement.csv
# source: modelled
# terminal: yes
load 'plots/common.gp'
f = csv('placement.csv')
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\"' '%s'", v, par, f)
set logscale x 2
set xtics (1, 2, 4, 8)
set xrange [0.8:10]
set xlabel 'tensor-parallel ranks t'
set ylabel 'modelled step time (ms)'
set yrange [0:*]
set key inside right top
set title 'Tensor parallelism inside a node against across nodes'
plot sel('inside', 'step') using 'threads':(column('median_s') * 1e3) with linespoints lt 1 pt 7 title 'step, tensor groups inside a node', \
     sel('across', 'step') using 'threads':(column('median_s') * 1e3) with linespoints lt 2 dt 2 pt 5 title 'step, tensor groups across nodes', \
     sel('inside', 'compute') using 'threads':(column('median_s') * 1e3) with lines lt 3 dt 3 title 'compute alone'
