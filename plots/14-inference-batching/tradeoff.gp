# caption: The batching trade-off, measured on a real threaded server: p99 latency against throughput for each batching rule, one point per arrival rate (chapter 14's serve). No batching saturates first and its latency climbs as requests queue; greedy batching grows its batches with the queue; budget batching holds requests to fill batches, paying latency at light load for throughput at heavy load. Points past a rule's capacity reject requests (counted in the table).
# data: serve.csv
# terminal: yes
load 'plots/common.gp'
f = csv('serve.csv')
P = values(f, 'variant', 'param', 'p99')
np = words(P)
budget = meta(f, 'model')
# One line per rate of a policy: throughput, then p99 in ms (two CSV rows joined by rate).
pts(v) = sprintf("< awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; print \"thr,p99,rate\"; next } " . \
    "$ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"throughput\" { t[$ix[\"n\"]] = $ix[\"value\"]; o[++k] = $ix[\"n\"] } " . \
    "$ix[\"variant\"] == \"%s\" && $ix[\"param\"] == \"p99\" { p[$ix[\"n\"]] = $ix[\"value\"] * 1000 } " . \
    "END { for (i = 1; i <= k; i++) print t[o[i]] \",\" p[o[i]] \",\" o[i] }' '%s'", v, v, f)
set title 'p99 latency against throughput: each line joins one rule''s points in order of arrival rate'
# The budget rule's latency budget (the CSV's model line): the line it must stay under.
budget_ms = system(sprintf("sed -n 's/^# model: .*budget_ms=\\([0-9.]*\\).*/\\1/p' '%s' | head -n 1", f))
if (strlen(budget_ms) > 0) {
    set arrow from graph 0, first budget_ms to graph 1, first budget_ms nohead lc rgb ref_color dt 2 lw 1.5 back
    set label sprintf('latency budget %s ms (the budget rule''s)', budget_ms) at graph 0.99, first budget_ms * 1.35 right tc rgb ref_color
}
# each point names its arrival rate (requests/s offered): past a rule's
# capacity the rate still rises while the throughput answered does not
rate(r) = r >= 1000 ? sprintf('%.1fk/s', r / 1000) : sprintf('%.0f/s', r)
set xlabel 'throughput (requests/s answered; labels: the arrival rate offered)'
set ylabel 'p99 latency (ms)'
set logscale y
set key inside left top
if (is_dumb) { set title 'p99 latency (ms) vs throughput (requests/s), per batching rule' }
plot for [i=1:np] pts(word(P, i)) using 'thr':'p99' with linespoints lt i pt i title word(P, i), \
     for [i=1:np] pts(word(P, i)) using 'thr':'p99':(rate(column('rate'))) with labels offset 0.8, 0.55 left font ',8' tc lt i notitle
