# caption: The modelled step time of GPT-3 XL (1.3B) against the device count, at the global batch of 512 sequences and at 4x that, each point the planner's fastest configuration that fits. The step falls as 1/N while every device has work, flattens as the bubble, the tensor all-reduces and the data-parallel ring's latency take over, and then rises (marked: the fastest device count of each batch). A larger batch moves the turning point to more devices.
# data: scaling.csv
# source: modelled
load 'plots/common.gp'
f = csv('scaling.csv')
V = meta(f, 'variants')
f1 = meta(f, 'fastest_small') + 0
f2 = meta(f, 'fastest_big') + 0
sel(v) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"kind\"] == \"modelled\"' '%s'", v, f)
set logscale x 2
set logscale y 10
set format y '%g'
set xlabel 'devices'
set xrange [6:180000]
set ylabel 'modelled step time (s)'
set key top right
set arrow 1 from f1, graph 0 to f1, graph 1 nohead lc rgb ref_color dt 3
set arrow 2 from f2, graph 0 to f2, graph 1 nohead lc rgb ref_color dt 2
set title 'GPT-3 XL (1.3B): modelled step time against devices at a fixed global batch'
plot sel(word(V, 1)) using 'threads':'value' with linespoints lt 1 title sprintf('%s sequences a step (fastest at %d)', word(V, 1)[2:], f1), \
     sel(word(V, 2)) using 'threads':'value' with linespoints lt 2 title sprintf('%s sequences a step (fastest at %d)', word(V, 2)[2:], f2)
