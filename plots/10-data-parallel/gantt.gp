# caption: One training step on every rank (modelled time), from the trace the virtual cluster records. Each rank has a compute lane (forward blue, backward green) and, below it, a communication lane (sends orange; receives grey, waiting included). Top: the all-reduce after the backward pass, all exposed. Middle: one bucket per layer, each all-reduced while the backward pass goes on; only the last bucket is exposed. Bottom: the same with one straggler (1.5x slower compute): every other rank waits in its receives.
# data: overlap.csv
# source: modelled
load 'plots/common.gp'
f = csv('overlap.csv')
S = values(f, 'param', 'variant', 'step')
ns = words(S)
P = meta(f, 'ranks') + 0
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\"' '%s'", v, par, f)
stats sel('step', word(S, 1)) using 'median_s' nooutput
tmax = STATS_max * 1e3
do for [i = 2:ns] { stats sel('step', word(S, i)) using 'median_s' nooutput; tmax = (STATS_max * 1e3 > tmax ? STATS_max * 1e3 : tmax) }
set xrange [0:tmax * 1.02]
set yrange [P - 0.5:-0.5]
set ytics 1
set ylabel 'rank'
set style fill solid 0.9 noborder
set key outside top center horizontal
ms(c) = column(c) * 1e3
# compute lane centred 0.2 above the rank's line, communication lane 0.2 below
if (is_dumb) { set terminal dumb size 100,40 }
set multiplot layout ns, 1 margins 0.08, 0.98, 0.1, 0.86 spacing 0, 0.09
set title offset 0, -0.6
do for [i = 1:ns] {
    set title word(S, i)
    if (i > 1) { unset key }
    if (i == ns) { set xlabel 'modelled time (ms)' } else { unset xlabel }
    plot sel('forward', word(S, i)) using ((ms('min_s') + ms('max_s')) / 2):(column('threads') - 0.2):((ms('max_s') - ms('min_s')) / 2):(0.15) with boxxyerror lt 1 title 'forward', \
         sel('backward', word(S, i)) using ((ms('min_s') + ms('max_s')) / 2):(column('threads') - 0.2):((ms('max_s') - ms('min_s')) / 2):(0.15) with boxxyerror lt 3 title 'backward', \
         sel('recv', word(S, i)) using ((ms('min_s') + ms('max_s')) / 2):(column('threads') + 0.2):((ms('max_s') - ms('min_s')) / 2):(0.12) with boxxyerror lc rgb '#bbbbbb' title 'recv (incl. waiting)', \
         sel('send', word(S, i)) using ((ms('min_s') + ms('max_s')) / 2):(column('threads') + 0.2):((ms('max_s') - ms('min_s')) / 2):(0.12) with boxxyerror lt 2 title 'send'
}
unset multiplot
