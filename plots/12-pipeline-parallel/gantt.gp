# caption: Who works when, for each schedule at p = 4 ranks and m = 8 micro-batches (modelled time, from the virtual cluster's trace; links free so only compute shows). One row per rank: forward (F) blue, backward (B) green, weight gradient (W, ZB-H1 only) orange; white gaps are the bubble. GPipe runs every F then every B; 1F1B the same bubble with fewer stored micro-batches; interleaving (two chunks a rank) shrinks the ramps; ZB-H1 fills the cool-down with W passes.
# data: schedules.csv
# source: modelled
load 'plots/common.gp'
f = csv('schedules.csv')
S = values(f, 'param', 'kind', 'event')
ns = words(S)
P = meta(f, 'ranks') + 0
sel(v, par) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"kind\"] == \"event\" && $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\"' '%s'", v, par, f)
# the time unit: T_F, the shortest forward of GPipe and ZB-H1 (a whole stage), so the axis reads in steps
stats sel('F', word(S, ns)) using 'median_s' nooutput
u = STATS_min
stats sel('F', word(S, 1)) using 'median_s' nooutput
u = (STATS_min < u ? STATS_min : u)
tmax = 0
do for [i = 1:ns] { stats sel('B', word(S, i)) using 'max_s' nooutput; tmax = (STATS_max / u > tmax ? STATS_max / u : tmax) }
set xrange [0:tmax * 1.01]
set yrange [P - 0.5:-0.5]
set ytics 1
set ylabel 'rank'
set style fill solid 0.9 border lc rgb 'white'
set key outside top center horizontal
if (is_dumb) { set terminal dumb size 100,60 }
set multiplot layout ns, 1 margins 0.08, 0.98, 0.12, 0.9 spacing 0, 0.09
set title offset 0, -0.6
box(c) = (column(c) / u)
do for [i = 1:ns] {
    set title word(S, i)
    if (i > 1) { unset key }
    if (i == ns) { set xlabel "modelled time in T_F (one stage's forward of one micro-batch)" } else { unset xlabel }
    nw = system(sprintf("awk -F, '$2 == \"W\" && $3 == \"event\" && $7 == \"%s\"' '%s' | wc -l", word(S, i), f)) + 0
    if (nw > 0) {
        plot sel('F', word(S, i)) using ((box('min_s') + box('max_s')) / 2):'threads':((box('max_s') - box('min_s')) / 2):(0.35) with boxxyerror lt 1 title 'F forward', \
             sel('B', word(S, i)) using ((box('min_s') + box('max_s')) / 2):'threads':((box('max_s') - box('min_s')) / 2):(0.35) with boxxyerror lt 3 title 'B backward', \
             sel('W', word(S, i)) using ((box('min_s') + box('max_s')) / 2):'threads':((box('max_s') - box('min_s')) / 2):(0.35) with boxxyerror lt 5 title 'W weight gradient'
    } else {
        plot sel('F', word(S, i)) using ((box('min_s') + box('max_s')) / 2):'threads':((box('max_s') - box('min_s')) / 2):(0.35) with boxxyerror lt 1 title 'F forward', \
             sel('B', word(S, i)) using ((box('min_s') + box('max_s')) / 2):'threads':((box('max_s') - box('min_s')) / 2):(0.35) with boxxyerror lt 3 title 'B backward', \
             NaN lt 5 with boxes title 'W weight gradient'
    }
}
unset multiplot
