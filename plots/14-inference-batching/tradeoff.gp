# caption: The batching trade-off, measured on a real threaded server: p99 latency against throughput for each batching rule, one point per arrival rate (chapter 14's serve). No batching saturates first and its latency climbs as requests queue; greedy batching grows its batches with the queue; budget batching holds requests to fill batches, paying latency at light load for throughput at heavy load. Points past a rule's capacity reject requests (counted in the table).
# data: serve.csv
# terminal: yes
load 'plots/common.gp'
f = csv('serve.csv')
P = values(f, 'variant', 'param', 'p99')
np = words(P)
budget = meta(f, 'model')
# One line per rate of a policy: throughput, then p99 in ms (two CSV rows joined by rate).
pts(v) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print \"thr,p99\"; next } " . \
    "$ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"throughput\" { t[$ix[\"n\"]] = $ix[\"value\"]; o[++k] = $ix[\"n\"] } " . \
    "$ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"p99\" { p[$ix[\"n\"]] = $ix[\"value\"] * 1000 } " . \
    "END { for (i = 1; i <= k; i++) print t[o[i]] \",\" p[o[i]] }' '%s'", v, v, f)
set title 'p99 latency against throughput, one point per arrival rate'
set xlabel 'throughput (requests/s answered)'
set ylabel 'p99 latency (ms)'
set logscale y
set key inside left top
if (is_dumb) { set title 'p99 latency (ms) vs throughput (requests/s), per batching rule' }
plot for [i=1:np] pts(word(P, i)) using 'thr':'p99' with linespoints lt i pt i title word(P, i)
