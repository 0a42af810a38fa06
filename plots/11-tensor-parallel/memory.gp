# caption: Memory per device for one transformer layer (default h = 12288, 96 heads, s = 2048, one sequence; fp32) against the tensor-parallel size t: weights fall as 1/t, activations kept for the backward pass less so with tensor parallelism alone (the layer norms' inputs and outputs stay whole on every rank), as 1/t with sequence parallelism; the paper's activation formula (Korthikanti et al. 2022, 16-bit activations with dropout masks) beside ours; and data parallelism's full copy (weights plus activations of one device), which does not fall. From tp_block.csv.
# data: tp_block.csv
# source: modelled
load 'plots/common.gp'
f = csv('tp_block.csv')
sel(v) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\"' '%s'", v, f)
set logscale x 2
set logscale y 2
set xtics (1, 2, 4, 8)
set xrange [0.8:10]
set format y '%g'
set xlabel 'tensor-parallel ranks t'
set ylabel 'GiB per device'
set key outside right top
set title 'Memory per device for one layer'
gib(c) = column(c) / 1073741824.0
plot sel('weights') using 'threads':(gib('value')) with linespoints lt 1 pt 7 title 'weights', \
     sel('act_tp') using 'threads':(gib('value')) with linespoints lt 2 pt 5 title 'activations, TP', \
     sel('act_sp') using 'threads':(gib('value')) with linespoints lt 3 pt 9 title 'activations, TP+SP', \
     sel('paper_tp') using 'threads':(gib('value')) with lines lt 2 dt 2 title 'paper, TP (16-bit)', \
     sel('paper_sp') using 'threads':(gib('value')) with lines lt 3 dt 2 title 'paper, TP+SP (16-bit)', \
     sel('dp_copy') using 'threads':(gib('value')) with linespoints lt 4 pt 4 title 'data parallelism: a full copy'
