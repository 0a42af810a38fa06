# caption: Strong scaling of one training step (25M parameters, 512K tokens, devices at 100 TFLOP/s, nodes of 8) on the virtual cluster. Left: compute falls as 1/R, the ring all-reduce does not (its latency term 2(R-1) alpha grows), so the step time has a minimum and then rises (marked: the lowest over every R that fills whole nodes, which the program finds from the closed form and simulates with its neighbours, not only the lowest of the powers of two); the tree's bandwidth term 2 log2(R) n beta makes it worse at every R past one node. Right: efficiency (speedup / R) for strong scaling (fixed global batch) and weak scaling (fixed batch per replica): weak scaling keeps each replica busy, so it falls only by the communication.
# data: scaling.csv
# source: modelled
load 'plots/common.gp'
f = csv('scaling.csv')
best = meta(f, 'best_replicas') + 0
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\"' '%s'", v, par, f)
stats sel('strong_ring', 'step') using 'threads':'median_s' nooutput
t1 = STATS_max_y
stats sel('weak_ring', 'step') using 'threads':'median_s' nooutput
w1 = STATS_min_y
set logscale x 2
set xlabel 'replicas R'
set key inside right top
set multiplot layout 1, 2
set title 'Strong scaling: step time (modelled)'
# The key top right, over headroom made for it (15x the slowest step):
# bottom left it hid the all-reduce line.
set key inside right top
set yrange [* : t1 * 1e3 * 15]
set logscale y
set format y '%g'
set ylabel 'modelled time per step (ms)'
set arrow 1 from best, graph 0 to best, graph 1 nohead lc rgb ref_color dt 3 lw 1.5
set label 1 sprintf('lowest at R = %d', best) at best, graph 0.05 right offset -0.5, 0 tc rgb ref_color
plot sel('strong_ring', 'step') using 'threads':(column('median_s') * 1e3) with linespoints lt 1 title 'step (ring)', \
     sel('strong_ring', 'compute') using 'threads':(column('median_s') * 1e3) with lines lt 3 dt 2 title 'compute', \
     sel('strong_ring', 'comm') using 'threads':(column('median_s') > 0 ? column('median_s') * 1e3 : NaN) with lines lt 2 dt 2 title 'all-reduce (ring)', \
     sel('strong_tree', 'step') using 'threads':(column('median_s') * 1e3) with linespoints lt 4 title 'step (tree)', \
     sel('optimum_ring', 'step') using 'threads':(column('median_s') * 1e3) with points pt 7 lc rgb ref_color title 'around the lowest R (ring)'
unset arrow 1
unset label 1
set title 'Efficiency: speedup / R (modelled)'
unset logscale y
set yrange [0:105]
set format y '%g%%'
set ylabel 'efficiency'
set key inside left bottom
plot sel('strong_ring', 'step') using 'threads':(100 * t1 / column('median_s') / column('threads')) with linespoints lt 1 title 'strong (fixed global batch)', \
     sel('weak_ring', 'step') using 'threads':(100 * w1 / column('median_s')) with linespoints lt 2 title 'weak (fixed batch per replica)'
unset multiplot
