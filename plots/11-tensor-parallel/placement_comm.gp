# caption: The share of the modelled step spent communicating, against t, for tensor groups inside a node (solid) and across nodes (dashed): all communication (thick), and the tensor groups' all-reduces alone (thin, open points), the rest being the data-parallel gradient ring. Inside a node the tensor traffic stays a few percent; across nodes it becomes most of the communication as t grows. Same runs as the step-time figure, from placement.csv.
# data: placement.csv
# source: modelled
load 'plots/common.gp'
f = csv('placement.csv')
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\"' '%s'", v, par, f)
# the tensor share: tp_comm / step, row by row (both files list t in the same order)
share(v) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print \"threads,share\"; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"step\" { s[$ix[\"threads\"]] = $ix[\"median_s\"] } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"tp_comm\" { c[$ix[\"threads\"]] = $ix[\"median_s\"]; o[++n] = $ix[\"threads\"] } END { for (i = 1; i <= n; i++) print o[i] \",\" c[o[i]] / s[o[i]] }' '%s'", v, v, f)
set logscale x 2
set xtics (1, 2, 4, 8)
set xrange [0.8:10]
set xlabel 'tensor-parallel ranks t'
set ylabel 'share of the step'
set yrange [0:100]
set format y '%g%%'
set key inside right top
set title 'Fraction of the step spent communicating'
plot sel('inside', 'comm_fraction') using 'threads':(100 * column('value')) with linespoints lt 1 lw 2 pt 7 title 'all communication, tensor groups inside a node', \
     sel('across', 'comm_fraction') using 'threads':(100 * column('value')) with linespoints lt 2 lw 2 dt 2 pt 5 title 'all communication, tensor groups across nodes', \
     share('inside') using 'threads':(100 * column('share')) with linespoints lt 1 pt 6 title 'tensor all-reduces, inside a node', \
     share('across') using 'threads':(100 * column('share')) with linespoints lt 2 dt 2 pt 4 title 'tensor all-reduces, across nodes'
