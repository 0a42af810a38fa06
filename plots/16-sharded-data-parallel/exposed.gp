# caption: DDP's gradient buckets (modelled on the virtual cluster): the communication left exposed after the backward pass (exposed = step - compute) against the bucket size, log scales. Small buckets send 2(p-1) messages each and pay the link latency alpha every time: exposed follows messages x alpha (dashed). Large buckets fire late: the last one starts only when the backward pass ends, so exposed follows the last bucket's all-reduce (dotted). The best bucket sits where the two meet; the step time sits on the compute-only line there.
# data: buckets.csv
# source: modelled
load 'plots/common.gp'
f = csv('buckets.csv')
best = meta(f, 'best_bucket_bytes') + 0
compute = meta(f, 'compute_s') * 1e3
alpha = meta(f, 'alpha_us')
P = meta(f, 'ranks') + 0
d(v) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"ddp\"' '%s'", v, f)
set xlabel 'bucket size (log scale)'
set ylabel 'modelled time per step (ms, log scale)'
set format y '%g'
stats d('step') using 'n' nooutput
xlo = STATS_min / 1.4
xhi = STATS_max * 1.4
stats d('step') using 'value' nooutput
ymax = STATS_max * 1e3
stats d('last_bucket') using 'value' nooutput
ymin = STATS_min * 1e3
set xrange [xlo:xhi]
set logscale x 2
set logscale y 10
set yrange [ymin / 3:ymax * 4]
stats d('exposed') using ((column('n') == best) ? column('value') * 1e3 : NaN) nooutput
bexp = STATS_max
# the label at the foot of the frame, below the two lines that meet at the best, with an arrow up to it
set label 1 sprintf("best: %s buckets, %.3f ms exposed", bytes_label(best), bexp) at best, ymin / 1.8 center front textcolor rgb '#000000' boxed
set arrow 1 from best, ymin / 1.55 to best, bexp / 1.25 lw 1 lc rgb '#000000' front
set key top center horizontal maxrows 2 width -2
set xtics rotate by 30 right
plot d('step') using 'n':(column('value') * 1e3):xticlabels(bytes_label(column('n'))) with linespoints lt 1 title 'step', \
     compute with lines dt 2 lc rgb ref_color lw 1.5 title sprintf('compute alone (%.2f ms)', compute), \
     d('exposed') using 'n':(column('value') * 1e3) with linespoints lt 2 title 'exposed communication', \
     d('latency') using 'n':(column('value') * 1e3) with lines dt 2 lt 5 title sprintf('messages x alpha (%g us)', alpha + 0), \
     d('last_bucket') using 'n':(column('value') * 1e3) with lines dt 3 lt 3 lw 2.5 title "last bucket's all-reduce", \
     '+' using (best):(bexp) every ::0::0 with points pt 6 ps 3 lc rgb '#000000' notitle
