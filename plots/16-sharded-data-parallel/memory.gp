# caption: Model states one device holds for the chapter's MLP (1327 parameters, fp32 weights, fp32 gradients, Adam's m and v) at ZeRO stages 0-3 on the run's largest device count, counted from the buffers each rank allocated (the rank holding the most). Stage 1 shards Adam's state, stage 2 also the gradients, stage 3 also the weights; the black marks are the formula of kernels/zero.h for the same sizes. Transient buffers that live only inside a step are not in the bars (the program's table lists them).
# data: zero.csv
# source: counted
load 'plots/common.gp'
f = csv('zero.csv')
# one line per stage: stage weights grads optimizer formula_total devices
tab = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; next } $ix[\"kind\"] == \"quantity\" && $ix[\"variant\"] ~ /^stage[0-3]$/ { k = $ix[\"variant\"]; p = $ix[\"param\"]; v[k, p] = $ix[\"value\"]; if (p == \"weights_bytes\") d[k] = $ix[\"threads\"] } END { print \"stage weights grads optimizer formula devices\"; for (s = 0; s < 4; s++) { k = \"stage\" s; if (!((k, \"weights_bytes\") in v)) continue; printf \"%%d %%s %%s %%s %%.1f %%s\\n\", s, v[k, \"weights_bytes\"], v[k, \"grads_bytes\"], v[k, \"optimizer_bytes\"], v[k, \"formula_weights_bytes\"] + v[k, \"formula_grads_bytes\"] + v[k, \"formula_optimizer_bytes\"], d[k] } }' '%s'", f)
set datafile separator whitespace
stats tab using 6 nooutput
D = STATS_max
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.6
set xtics ('stage 0 (DP)' 0, 'stage 1 (os)' 1, 'stage 2 (os+g)' 2, 'stage 3 (os+g+p)' 3)
set xrange [-0.6:3.6]
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set ylabel 'bytes held per device (counted)'
set key top right
set title sprintf('ZeRO: model states per device on %d devices (MLP, counted)', D)
plot tab using 2 lt 1 title 'weights', '' using 3 lt 2 title 'gradients', '' using 4 lt 3 title 'Adam m, v', \
     '' using 1:5 with points pt 7 ps 1.2 lc rgb 'black' title 'formula'
