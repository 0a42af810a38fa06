# caption: Who works when, for the first steps of the profile run (real time on this machine). Top: no prefetch; the training thread (0) loads a batch (orange), then computes on it (blue), so every step is load + compute. Bottom: prefetch; loader threads (1, 2, ...) decode batches (green) ahead into the queue while thread 0 computes, and thread 0's orange is now only waiting at the queue. Where the green bars lie beside the blue ones the threads ran at the same time.
# data: profile.csv
load 'plots/common.gp'
f = csv('profile.csv')
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"kind\"] == \"event\" && $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\" && $ix[\"n\"] < 10' '%s'", v, par, f)
stats sel('no_prefetch', 'compute') using 'max_s' nooutput
tmax = STATS_max * 1e3
stats sel('prefetch', 'decode') using 'threads' nooutput
L = STATS_max
set xrange [0:tmax * 1.02]
set ytics 1
set ylabel 'thread'
set style fill solid 0.9 noborder
set key outside top center horizontal
ms(c) = column(c) * 1e3
box(v, par, lt, name) = 0
if (is_dumb) { set terminal dumb size 100,40 }
set multiplot layout 2, 1 margins 0.08, 0.98, 0.1, 0.86 spacing 0, 0.14
set title 'no prefetch: the training thread loads, then computes'
set yrange [0.6:-0.6]
plot sel('no_prefetch', 'load') using ((ms('min_s') + ms('max_s')) / 2):'threads':((ms('max_s') - ms('min_s')) / 2):(0.3) with boxxyerror lt 2 title 'load / wait', \
     sel('no_prefetch', 'compute') using ((ms('min_s') + ms('max_s')) / 2):'threads':((ms('max_s') - ms('min_s')) / 2):(0.3) with boxxyerror lt 1 title 'compute', \
     sel('prefetch', 'decode') using (-1):(-1) with points lt 3 title 'decode (loader)'
unset key
set title 'prefetch: loaders decode ahead, thread 0 waits only when the queue is empty'
set xlabel 'time (ms)'
set yrange [L + 0.6:-0.6]
plot sel('prefetch', 'wait') using ((ms('min_s') + ms('max_s')) / 2):'threads':((ms('max_s') - ms('min_s')) / 2):(0.3) with boxxyerror lt 2, \
     sel('prefetch', 'compute') using ((ms('min_s') + ms('max_s')) / 2):'threads':((ms('max_s') - ms('min_s')) / 2):(0.3) with boxxyerror lt 1, \
     sel('prefetch', 'decode') using ((ms('min_s') + ms('max_s')) / 2):'threads':((ms('max_s') - ms('min_s')) / 2):(0.3) with boxxyerror lt 3
unset multiplot
