# caption: One training step on ranks 0 and 1 of the virtual cluster (modelled time). Rank 0 receives from the other node over the slow link, rank 1 from rank 0 inside its node, so rank 1's all-reduces end a little earlier; the step ends with the slowest rank. Each rank has a compute stream (upper bar: forward blue, backward green) and a communication stream (lower bar). Top three panels, DDP: the gradients all-reduced in buckets during the backward pass (orange, alternate buckets lighter), for a bucket a quarter of the best, the best, and one bucket for the whole model, whose all-reduce is all exposed after the backward pass. Small buckets pay the link latency once per message and their stream ends long after the compute. Bottom two, FSDP (ZeRO-3): each layer all-gathered (pink) before its forward and its backward, gradients reduce-scattered (sky blue); without prefetch the compute stream waits for every gather (white gaps), with prefetch the next layer's gather runs while the current layer computes.
# data: buckets.csv
# source: modelled
load 'plots/common.gp'
f = csv('buckets.csv')
S = meta(f, 'gantt')
ns = words(S)
# the bars of one event kind in one scenario, ranks 0 and 1
sel(v, par, dummy) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print; next } $ix[\"kind\"] == \"event\" && $ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"%s\" && $ix[\"threads\"] < 2' '%s'", v, par, f)
tmax = 0
do for [i = 1:ns] { stats sel('backward', word(S, i), -1) using 'max_s' nooutput; tmax = (STATS_max * 1e3 > tmax ? STATS_max * 1e3 : tmax) }
do for [i = 1:ns] {
    c = (word(S, i)[1:4] eq 'ddp_') ? 'allreduce' : 'reduce_scatter'
    stats sel(c, word(S, i), -1) using 'max_s' nooutput; tmax = (STATS_max * 1e3 > tmax ? STATS_max * 1e3 : tmax)
}
best = meta(f, 'best_bucket_bytes') + 0
whole = meta(f, 'model_bytes') + 0
title_of(s) = (s[1:4] eq 'ddp_') ? ((s[5:] + 0 >= whole) ? sprintf("DDP, one bucket of %s: no overlap", bytes_label(s[5:] + 0)) : \
              sprintf("DDP, %s buckets%s", bytes_label(s[5:] + 0), (s[5:] + 0 == best) ? " (the best)" : "")) : \
              (s eq 'fsdp_prefetch') ? "FSDP, the next layer's gather prefetched" : "FSDP, no prefetch"
set xrange [0:tmax * 1.02]
set yrange [1.5:-0.5]
set ytics ("rank 0" 0, "rank 1" 1)
set style fill solid 0.9 noborder
set key outside top center horizontal
ms(c) = column(c) * 1e3
x(dummy) = (ms('min_s') + ms('max_s')) / 2
dx(dummy) = (ms('max_s') - ms('min_s')) / 2
# compute stream 0.2 above the rank's line, communication stream 0.2 below
if (is_dumb) { set terminal dumb size 100,60 }
set multiplot layout ns, 1 margins 0.09, 0.98, 0.1, 0.88 spacing 0, 0.055
set title offset 0, -0.7
do for [i = 1:ns] {
    s = word(S, i)
    set title title_of(s)
    if (i > 1) { unset key }
    # one time axis, under the last panel: the others' tic labels would run into the next title
    if (i == ns) { set xlabel 'modelled time (ms)'; set format x '%g' } else { unset xlabel; set format x '' }
    if (s[1:4] eq 'ddp_') {
        plot sel('forward', s, -1) using (x(0)):(column('threads') - 0.2):(dx(0)):(0.17) with boxxyerror lt 1 title 'forward', \
             sel('backward', s, -1) using (x(0)):(column('threads') - 0.2):(dx(0)):(0.17) with boxxyerror lt 3 title 'backward', \
             sel('allreduce', s, -1) using (x(0)):(column('threads') + 0.2):(dx(0)):(0.15):(int(column('n')) % 2 ? 0xF2A772 : 0xD55E00) with boxxyerror lc rgb variable notitle, \
             NaN with boxes lt 2 title 'all-reduce (a bucket)', \
             NaN with boxes lt 4 title 'all-gather (a layer)', \
             NaN with boxes lt 6 title 'reduce-scatter'
    } else {
        plot sel('forward', s, -1) using (x(0)):(column('threads') - 0.2):(dx(0)):(0.17) with boxxyerror lt 1 notitle, \
             sel('backward', s, -1) using (x(0)):(column('threads') - 0.2):(dx(0)):(0.17) with boxxyerror lt 3 notitle, \
             sel('allgather', s, -1) using (x(0)):(column('threads') + 0.2):(dx(0)):(0.15) with boxxyerror lt 4 notitle, \
             sel('reduce_scatter', s, -1) using (x(0)):(column('threads') + 0.2):(dx(0)):(0.15) with boxxyerror lt 6 notitle
    }
}
unset multiplot
