# caption: One training step of one layer for the ranks of one tensor group (the largest t of the run, 8 by default), on the modelled clock, from the virtual cluster's trace. Each rank has a compute lane (forward blue, backward green) and below it a communication lane: the tensor group's all-reduces (orange sends, grey receives with their waiting) and the data-parallel gradient ring at the end (purple sends, light receives). Top: the tensor group inside a node; bottom: across nodes. The same compute; across nodes every one of the four all-reduces per layer runs on the slow link and stalls the next piece of compute, while the gradient ring (now inside a node) shrinks.
# data: placement.csv
# source: modelled
load 'plots/common.gp'
f = csv('placement.csv')
T = meta(f, 'gantt_t') + 0
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\" && $ix[\"kind\"] == \"event\"' '%s'", v, par, f)
tmax = 0
do for [p in 'inside across'] { do for [v in 'F B tp_recv dp_recv'] { stats sel(v, p) using 'max_s' nooutput; tmax = (STATS_max * 1e3 > tmax ? STATS_max * 1e3 : tmax) } }
set xrange [0:tmax * 1.02]
set yrange [T - 0.5:-0.5]
set ytics 1
set ylabel 'rank in the tensor group'
set style fill solid 0.9 noborder
set key outside top center horizontal
ms(c) = column(c) * 1e3
if (is_dumb) { set terminal dumb size 100,40 }
set multiplot layout 2, 1 margins 0.08, 0.98, 0.1, 0.86 spacing 0, 0.09
set title offset 0, -0.6
do for [i = 1:2] {
    p = word('inside across', i)
    set title sprintf('t = %d, tensor group %s', T, i == 1 ? 'inside a node' : 'across nodes')
    if (i > 1) { unset key; set xlabel 'modelled time (ms)' } else { unset xlabel }
    plot sel('F', p) using ((ms('min_s') + ms('max_s')) / 2):(column('threads') - 0.2):((ms('max_s') - ms('min_s')) / 2):(0.15) with boxxyerror lt 1 title 'forward', \
         sel('B', p) using ((ms('min_s') + ms('max_s')) / 2):(column('threads') - 0.2):((ms('max_s') - ms('min_s')) / 2):(0.15) with boxxyerror lt 3 title 'backward', \
         sel('tp_recv', p) using ((ms('min_s') + ms('max_s')) / 2):(column('threads') + 0.2):((ms('max_s') - ms('min_s')) / 2):(0.12) with boxxyerror lc rgb '#999999' title 'tensor recv', \
         sel('tp_send', p) using ((ms('min_s') + ms('max_s')) / 2):(column('threads') + 0.2):((ms('max_s') - ms('min_s')) / 2):(0.12) with boxxyerror lt 2 title 'tensor send', \
         sel('dp_recv', p) using ((ms('min_s') + ms('max_s')) / 2):(column('threads') + 0.2):((ms('max_s') - ms('min_s')) / 2):(0.12) with boxxyerror lc rgb '#d8c8e8' title 'data recv', \
         sel('dp_send', p) using ((ms('min_s') + ms('max_s')) / 2):(column('threads') + 0.2):((ms('max_s') - ms('min_s')) / 2):(0.12) with boxxyerror lc rgb '#7b3294' title 'data send'
}
unset multiplot
