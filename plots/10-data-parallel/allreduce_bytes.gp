# caption: All-reduce time against message size on 8 ranks of one node (modelled NVLink-like link: 1 us latency, 450 GB/s). Points: the virtual cluster's simulated time; lines: the closed forms (naive 2(p-1)(a + n b), tree 2 log2(p)(a + n b), ring 2(p-1)(a + n/p b)). Small messages pay latency, where the tree's 2 log2 p steps win; large ones pay bandwidth, where the ring, sending only 2(p-1)/p of the buffer per rank, wins.
# data: allreduce.csv
# source: modelled
# terminal: yes
load 'plots/common.gp'
f = csv('allreduce.csv')
A = values(f, 'variant', 'param', 'bytes:sim')
na = words(A)
p = meta(f, 'sweep_ranks')
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\"' '%s'", v, par, f)

set title sprintf('All-reduce of n bytes on %s ranks of one node: simulated (points) and closed form (lines)', p)
set xlabel 'buffer size (bytes)'
set ylabel 'modelled time (us)'
set logscale xy
set format x '%.0s%cB'
set format y '%g'
set key inside left top
if (is_dumb) { set title 'all-reduce time (us) vs bytes, 8 ranks: points simulated, lines closed form'; unset format x }
plot for [i=1:na] sel(word(A, i), 'bytes:model') using 'n':(column('median_s') * 1e6) with lines lt i dt 2 notitle, \
     for [i=1:na] sel(word(A, i), 'bytes:sim') using 'n':(column('median_s') * 1e6) with points lt i title word(A, i)
