# caption: The share of the modelled step spent communicating (tensor-parallel all-reduces plus the data-parallel gradient ring), against t, for tensor groups inside a node and across nodes; same runs as the step-time figure, from placement.csv.
# data: placement.csv
load 'plots/common.gp'
f = csv('placement.csv')
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\"' '%s'", v, par, f)
set logscale x 2
set xtics (1, 2, 4, 8)
set xrange [0.8:10]
set xlabel 'tensor-parallel ranks t'
set ylabel 'communication, share of the step'
set yrange [0:100]
set format y '%g%%'
set key inside right top
set title 'Fraction of the step spent communicating'
plot sel('inside', 'comm_fraction') using 'threads':(100 * column('value')) with linespoints lt 1 pt 7 title 'tensor groups inside a node', \
     sel('across', 'comm_fraction') using 'threads':(100 * column('value')) with linespoints lt 2 dt 2 pt 5 title 'tensor groups across nodes'
