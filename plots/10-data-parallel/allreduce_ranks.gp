# caption: All-reduce time against rank count, nodes of 8 ranks (inside a node 450 GB/s and 1 us; between nodes 50 GB/s and 5 us). Left, a 4 KiB buffer: latency rules, the tree's 2 log2 p steps beat the ring's 2(p-1). Right, 64 MiB: bandwidth rules, the ring's time barely grows with p while the naive root's grows as p; the jump from 8 to 16 ranks is the first crossing of the slow inter-node link. Lines: the closed forms with the inter-node link (for the tree and the naive root, whose first steps use the fast link, an upper bound).
# data: allreduce.csv
# source: modelled
load 'plots/common.gp'
f = csv('allreduce.csv')
A = values(f, 'variant', 'param', 'ranks0:sim')
na = words(A)
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\"' '%s'", v, par, f)
set logscale xy 2
set logscale y 10
set format y '%g'
set xlabel 'ranks'
set ylabel 'modelled time (ms)'
set key inside left top
set multiplot layout 1, 2
do for [k = 0:1] {
    set title (k == 0 ? 'small buffer (4 KiB): latency-bound' : 'large buffer (64 MiB): bandwidth-bound')
    plot for [i=1:na] sel(word(A, i), sprintf('ranks%d:model', k)) using 'threads':(column('median_s') * 1e3) with lines lt i dt 2 notitle, \
         for [i=1:na] sel(word(A, i), sprintf('ranks%d:sim', k)) using 'threads':(column('median_s') * 1e3) with points lt i title word(A, i), \
         NaN with lines lc rgb ref_color dt 2 title 'dashed: formula'
}
unset multiplot
