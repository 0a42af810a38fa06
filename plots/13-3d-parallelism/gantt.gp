# caption: One composed training step on 8 modelled devices, d = 2 replicas x t = 2 tensor ranks x p = 2 pipeline stages (ranks tensor-first: 0-1 are stage 0 of replica 0, 2-3 stage 0 of replica 1, 4-7 stage 1), 1F1B with m = 4 micro-batches, from the virtual cluster's trace. Forward (F) blue, backward (B) green; sends orange and receives (waiting included) grey: the short ones between computations are the tensor all-reduces inside each layer, the longer grey bars the pipeline's waits (the bubble), and the end of the step the data-parallel all-reduce of the gradients.
# data: validate.csv
# source: modelled
load 'plots/common.gp'
f = csv('validate.csv')
P = meta(f, 'ranks') + 0
sel(v) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"kind\"] == \"event\" && $ix[\"variant\"] == \"%s\"' '%s'", v, f)
set yrange [P - 0.5:-0.5]
# Each rank's place in the 2 x 2 x 2 grid, tensor-first: rank = (pp d + dd) t + tt
# (kernels/parallel3d.h), so ranks 0-3 are stage 0 and 4-7 stage 1.
set ytics ()
do for [r = 0:P - 1] {
    set ytics add (sprintf('%d: stage %d, dp %d, tp %d', r, r / 4, (r / 2) % 2, r % 2) r)
}
set ylabel 'rank'
set xlabel 'modelled time (us)'
set style fill solid 0.9 border lc rgb 'white'
set key outside top center horizontal
set title 'One 2 x 2 x 2 step, 1F1B, m = 4 (modelled)'
us(c) = column(c) * 1e6
plot sel('recv') using ((us('min_s') + us('max_s')) / 2):'threads':((us('max_s') - us('min_s')) / 2):(0.12) with boxxyerror lc rgb '#bbbbbb' title 'recv (waiting)', \
     sel('send') using ((us('min_s') + us('max_s')) / 2):'threads':((us('max_s') - us('min_s')) / 2):(0.2) with boxxyerror lt 5 title 'send', \
     sel('F') using ((us('min_s') + us('max_s')) / 2):'threads':((us('max_s') - us('min_s')) / 2):(0.35) with boxxyerror lt 1 title 'forward', \
     sel('B') using ((us('min_s') + us('max_s')) / 2):'threads':((us('max_s') - us('min_s')) / 2):(0.35) with boxxyerror lt 3 title 'backward'
